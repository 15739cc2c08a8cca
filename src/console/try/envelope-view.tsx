import { canonicalMediaType, mediaTypeFromName } from '../../unified/classify-media.js';
import { validateUnifiedOutput } from '../../unified/validate-unified-output.js';
import { CopyButton } from '../ui/copy-button.js';
import type { GatewayAnswer } from './gateway-client.js';

type Item = Record<string, unknown>;

function asObject(value: unknown): Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Item) : {};
}

function asItems(value: unknown): Item[] {
  return Array.isArray(value) ? value.map(asObject) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A safe source for a media item: its http(s), data or blob URL, or its base64 data as a data URL. */
export function mediaSource(item: Item): string | undefined {
  const url = text(item.url);
  if (url !== undefined) return /^(https?:|data:|blob:)/i.test(url) ? url : undefined;
  const data = text(item.data);
  if (data === undefined) return undefined;
  return `data:${text(item.media_type) ?? 'application/octet-stream'};base64,${data}`;
}

function mediaTypeOf(item: Item): string | undefined {
  const name = text(item.name) ?? text(item.url)?.split(/[?#]/)[0];
  return text(item.media_type) ?? (name === undefined ? undefined : mediaTypeFromName(name));
}

/**
 * One envelope rendered by its shape alone, whichever provider answered: the content, images, audio and video
 * players, download links, usage and latency; or a failure card with the code, HTTP status, message and trace
 * id. An answer that is not a valid envelope is said to be so, and shown as far as its shape allows.
 */
export function EnvelopeView({ answer, streamed }: { answer: GatewayAnswer; streamed: string }) {
  const body = asObject(answer.body);
  const metadata = asObject(body.metadata);
  const traceId = text(metadata.trace_id) ?? answer.traceId ?? undefined;
  const check = answer.body === undefined ? null : validateUnifiedOutput(answer.body);

  if (answer.body === undefined) {
    return (
      <div class="card failure" role="alert">
        <h3>No envelope</h3>
        <p>{answer.problem}</p>
        {streamed !== '' && <p class="content">{streamed}</p>}
        {answer.status > 0 && <p>HTTP status {answer.status}</p>}
        {traceId !== undefined && <TraceId value={traceId} />}
      </div>
    );
  }
  const invalid = check !== null && !check.ok && (
    <details class="card warn">
      <summary>The answer is not a valid unified envelope ({check.violations.length} violations)</summary>
      <ul>
        {check.violations.map((v) => (
          <li key={`${v.code}${v.path}`}>
            <code>{v.code}</code> at <code>{v.path || '/'}</code>: {v.message}
          </li>
        ))}
      </ul>
    </details>
  );

  if (body.success !== true) {
    const error = asObject(body.error);
    const details = asObject(error.details);
    return (
      <div class="outcome">
        {invalid}
        <div class="card failure" role="alert" aria-labelledby="failure-title">
          <h3 id="failure-title">Failed: {text(error.code) ?? 'no error code'}</h3>
          <dl class="facts">
            <dt>Code</dt>
            <dd>
              <code>{text(error.code) ?? '—'}</code>
            </dd>
            <dt>HTTP status</dt>
            <dd>{answer.status}</dd>
            <dt>Message</dt>
            <dd>{text(error.message) ?? '—'}</dd>
            <dt>Provider</dt>
            <dd>{text(body.provider) ?? '—'}</dd>
            <TraceRow traceId={traceId} />
          </dl>
          {Object.keys(details).length > 0 && (
            <details>
              <summary>Details</summary>
              <pre class="json">{JSON.stringify(details, null, 2)}</pre>
            </details>
          )}
        </div>
      </div>
    );
  }

  const usage = asObject(body.usage);
  const images = asItems(body.images);
  const files = asItems(body.files);
  const videos = asItems(body.videos);
  return (
    <div class="outcome">
      {invalid}
      <section class="card answer" aria-label="Answer">
        <p class="content">{text(body.content) ?? streamed}</p>
        {images.map((item, index) => {
          const src = mediaSource(item);
          return src === undefined ? null : (
            <figure key={src}>
              <img
                src={src}
                alt={text(item.revised_prompt) ?? `Generated image ${index + 1} of ${images.length}`}
              />
              {text(item.revised_prompt) !== undefined && (
                <figcaption>{text(item.revised_prompt)}</figcaption>
              )}
            </figure>
          );
        })}
        {videos.map((item, index) => {
          const src = mediaSource(item);
          return src === undefined ? null : (
            // biome-ignore lint/a11y/useMediaCaption: generated videos come with no caption track
            <video key={src} controls src={src} aria-label={`Generated video ${index + 1}`} />
          );
        })}
        {files.map((item, index) => (
          <FileItem key={mediaSource(item) ?? index} item={item} index={index} />
        ))}
      </section>
      <dl class="facts">
        <dt>Provider</dt>
        <dd>{text(body.provider) ?? '—'}</dd>
        <dt>Model</dt>
        <dd>{text(metadata.model) ?? '—'}</dd>
        <dt>Usage</dt>
        <dd>
          {String(usage.input_tokens ?? 0)} input tokens, {String(usage.output_tokens ?? 0)} output tokens
          {metadata.usage_reported === false && ' (not reported by the provider)'}
        </dd>
        <dt>Latency</dt>
        <dd>
          {typeof metadata.latency_ms === 'number' ? `${metadata.latency_ms} ms at the gateway, ` : ''}
          {answer.elapsedMs} ms in this page
        </dd>
        <TraceRow traceId={traceId} />
      </dl>
    </div>
  );
}

function TraceRow({ traceId }: { traceId: string | undefined }) {
  if (traceId === undefined) return null;
  return (
    <>
      <dt>Trace id</dt>
      <dd>
        <TraceId value={traceId} />
      </dd>
    </>
  );
}

function TraceId({ value }: { value: string }) {
  return (
    <>
      <code class="trace">{value}</code> <CopyButton value={value} label="Copy trace id" />
    </>
  );
}

function FileItem({ item, index }: { item: Item; index: number }) {
  const src = mediaSource(item);
  const type = mediaTypeOf(item);
  const name = text(item.name) ?? `file-${index + 1}`;
  if (src === undefined) return <p>File {name}: no URL or data to show.</p>;
  const kind = type === undefined ? undefined : canonicalMediaType(type).split('/')[0];
  // biome-ignore lint/a11y/useMediaCaption: a generated audio answer comes with no caption track
  if (kind === 'audio') return <audio controls src={src} aria-label={`Audio answer: ${name}`} />;
  // biome-ignore lint/a11y/useMediaCaption: generated videos come with no caption track
  if (kind === 'video') return <video controls src={src} aria-label={`Video: ${name}`} />;
  if (kind === 'image') return <img src={src} alt={name} />;
  return (
    <p>
      <a href={src} download={name}>
        Download {name}
      </a>
      {type !== undefined && ` (${type})`}
    </p>
  );
}
