import { useState } from 'preact/hooks';
import { isJsonObject } from '../../contract/findings.js';
import { canonicalMediaType, mediaTypeFromName } from '../../unified/classify-media.js';
import { CopyButton } from '../ui/copy-button.js';
import { JsonTree } from '../ui/json-tree.js';
import type { GatewayAnswer, RateLimit } from './send-request.js';

type Item = Record<string, unknown>;

function asObject(value: unknown): Item {
  return isJsonObject(value) ? (value as Item) : {};
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

/** Longest string the Envelope tab shows whole; longer ones (base64 media) are shortened there, never copied so. */
const SHOWN_STRING = 240;

/** The envelope as formatted JSON for reading, long strings shortened with their length. */
function formatForReading(body: unknown): string {
  return JSON.stringify(
    body,
    (_key, value: unknown) =>
      typeof value === 'string' && value.length > SHOWN_STRING
        ? `${value.slice(0, 80)}… (${value.length} characters; Copy envelope copies them all)`
        : value,
    2,
  );
}

/** Props of {@link EnvelopeView}. */
export interface EnvelopeViewProps {
  /** What came back from the gateway. */
  answer: GatewayAnswer;
  /** The text streamed so far (shown when the final envelope has no content). */
  streamed: string;
  /** A prefix for the ids inside, unique on the page (several envelopes side by side in Compare). */
  id: string;
  /** The accessible name of the answer region. */
  label?: string;
}

/**
 * One envelope rendered by its shape alone, whichever provider answered: an "Answer" tab with the content,
 * images, players, tool calls and structured object, usage, latency, attempts and trace id, or a failure whose
 * headline is its code and HTTP status; and an "Envelope" tab with the raw envelope to read and copy. The
 * envelope is always a valid one: verdict/client answers a body that is not an envelope, or no answer at all, with
 * a failure of its own (provider `system`), whose card says why when no answer arrived.
 */
export function EnvelopeView({ answer, streamed, id, label = 'Answer' }: EnvelopeViewProps) {
  const [tab, setTab] = useState<'answer' | 'envelope'>('answer');
  const body = asObject(answer.envelope);
  const metadata = asObject(body.metadata);
  // Without an answer the trace id is one verdict/client made up: the gateway never saw it.
  const traceId = answer.status === 0 ? undefined : text(metadata.trace_id);
  const tabs = (
    // The tabs pattern of WAI-ARIA: the chosen tab is in the Tab order, the arrow keys move to the other one.
    <div
      class="tabs"
      role="tablist"
      aria-label={`${label}: view`}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
        event.preventDefault();
        const next = tab === 'answer' ? 'envelope' : 'answer';
        setTab(next);
        document.getElementById(`${id}-tab-${next}`)?.focus();
      }}
    >
      {(['answer', 'envelope'] as const).map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          id={`${id}-tab-${name}`}
          aria-selected={tab === name}
          aria-controls={`${id}-panel`}
          tabIndex={tab === name ? 0 : -1}
          onClick={() => setTab(name)}
        >
          {name === 'answer' ? (body.success === true ? 'Answer' : 'Failure') : 'Envelope'}
        </button>
      ))}
    </div>
  );
  const raw = JSON.stringify(answer.envelope, null, 2);
  return (
    <div class="outcome">
      {tabs}
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`}>
        {tab === 'envelope' ? (
          <div class="envelope">
            <CopyButton value={raw} label="Copy envelope" />
            <pre class="json">{formatForReading(answer.envelope)}</pre>
          </div>
        ) : body.success === true ? (
          <Success body={body} metadata={metadata} answer={answer} streamed={streamed} label={label} />
        ) : (
          <Failure body={body} metadata={metadata} answer={answer} streamed={streamed} id={id} />
        )}
        {tab === 'answer' && <Facts body={body} metadata={metadata} answer={answer} traceId={traceId} />}
      </div>
    </div>
  );
}

type Parts = { body: Item; metadata: Item; answer: GatewayAnswer };

function Failure({ body, answer, streamed, id }: Parts & { streamed: string; id: string }) {
  const error = asObject(body.error);
  const details = asObject(error.details);
  return (
    <div class="card failure" role="alert" aria-labelledby={`${id}-failure`}>
      <h3 id={`${id}-failure`}>
        <code>{text(error.code) ?? 'no error code'}</code>
        {answer.status > 0 && <span class="status"> HTTP {answer.status}</span>}
      </h3>
      <p class="message">{answer.problem ?? text(error.message) ?? 'The envelope gives no message.'}</p>
      {streamed !== '' && <p class="content">{streamed}</p>}
      <SchemaViolations details={details} />
      {Object.keys(details).length > 0 && (
        <details>
          <summary>Details</summary>
          <pre class="json">{JSON.stringify(details, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}

/**
 * An answer that breaks the requested schema (`INVALID_PROVIDER_RESPONSE` with `details.violations`): the
 * object as a tree with each violating member marked, and every violation listed.
 */
function SchemaViolations({ details }: { details: Item }) {
  if (!Array.isArray(details.violations) || typeof details.content !== 'string') return null;
  const violations = asItems(details.violations).flatMap((v) =>
    typeof v.path === 'string' && typeof v.message === 'string' ? [{ path: v.path, message: v.message }] : [],
  );
  let object: unknown;
  try {
    object = JSON.parse(details.content);
  } catch {
    return null;
  }
  const marks = new Map(violations.map((v) => [v.path, v.message]));
  return (
    <div class="object">
      <h4>The answer against the schema</h4>
      <JsonTree value={object} marks={marks} />
      <ul class="violations" aria-label="Schema violations">
        {violations.map((v) => (
          <li key={`${v.path}${v.message}`}>
            <code>{v.path === '' ? '/' : v.path}</code>: {v.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Success({ body, metadata, streamed, label }: Parts & { streamed: string; label: string }) {
  const images = asItems(body.images);
  const files = asItems(body.files);
  const videos = asItems(body.videos);
  const calls = asItems(metadata.tool_calls);
  return (
    <section class="card answer" aria-label={label}>
      {text(metadata.reasoning) !== undefined && (
        <details class="reasoning">
          <summary>The model's reasoning</summary>
          <p class="content">{text(metadata.reasoning)}</p>
        </details>
      )}
      <p class="content">{text(body.content) ?? streamed}</p>
      {images.map((item, index) => {
        const src = mediaSource(item);
        return src === undefined ? null : (
          <figure key={src}>
            <img
              src={src}
              alt={text(item.revised_prompt) ?? `Generated image ${index + 1} of ${images.length}`}
            />
            {text(item.revised_prompt) !== undefined && <figcaption>{text(item.revised_prompt)}</figcaption>}
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
      {calls.length > 0 && (
        <div class="calls">
          <h4>Tool calls</h4>
          <ol aria-label="Tool calls">
            {calls.map((call, index) => (
              <li key={text(call.id) ?? index}>
                <code class="name">{text(call.name) ?? '(no name)'}</code>
                {text(call.id) !== undefined && <span class="hint"> {text(call.id)}</span>}
                <JsonTree value={call.arguments ?? {}} />
              </li>
            ))}
          </ol>
        </div>
      )}
      {metadata.object !== undefined && (
        <div class="object">
          <h4>Structured object</h4>
          <JsonTree value={metadata.object} />
        </div>
      )}
    </section>
  );
}

function Facts({ body, metadata, answer, traceId }: Parts & { traceId: string | undefined }) {
  const usage = asObject(body.usage);
  return (
    <dl class="facts">
      <dt>Provider</dt>
      <dd>{text(body.provider) ?? '—'}</dd>
      {text(metadata.model) !== undefined && (
        <>
          <dt>Model</dt>
          <dd>{text(metadata.model)}</dd>
        </>
      )}
      {text(metadata.finish_reason) !== undefined && (
        <>
          <dt>Finish reason</dt>
          <dd>{text(metadata.finish_reason)}</dd>
        </>
      )}
      {body.success === true && (
        <>
          <dt>Usage</dt>
          <dd>
            {String(usage.input_tokens ?? 0)} input tokens, {String(usage.output_tokens ?? 0)} output tokens
            {metadata.usage_reported === false && ' (not reported by the provider)'}
          </dd>
        </>
      )}
      {isJsonObject(metadata.cost) && (
        <>
          <dt>Cost</dt>
          <dd>{describeCost(asObject(metadata.cost))}</dd>
        </>
      )}
      {answer.rateLimit !== undefined && (
        <>
          <dt>Rate limit</dt>
          <dd>{describeRateLimit(answer.rateLimit)}</dd>
        </>
      )}
      <dt>Latency</dt>
      <dd>
        {typeof metadata.latency_ms === 'number' ? `${metadata.latency_ms} ms at the gateway, ` : ''}
        {answer.elapsedMs} ms in this page
      </dd>
      {typeof metadata.attempts === 'number' && (
        <>
          <dt>Attempts</dt>
          <dd>{metadata.attempts}</dd>
        </>
      )}
      <TraceRow traceId={traceId} />
    </dl>
  );
}

/** An answer's `metadata.cost`, for people: dollars, or why the price is not known. */
export function describeCost(cost: Item): string {
  if (typeof cost.usd === 'number') {
    const usd = cost.usd;
    // Small costs keep their significant digits: a cheap answer is not "$0.00".
    const shown = usd === 0 ? '0' : usd >= 0.01 ? usd.toFixed(4) : usd.toPrecision(2);
    return `$${shown}${cost.source === 'demo' ? ' (the demo costs nothing)' : ''}`;
  }
  return `unknown${text(cost.message) === undefined ? '' : `: ${text(cost.message)}`}`;
}

/** The `RateLimit-*` headers of an answer, for people. */
export function describeRateLimit({ limit, remaining, resetSeconds }: RateLimit): string {
  return `${remaining} of ${limit} requests left this minute, for ${resetSeconds} s more`;
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

/** The Usage view's address for the request records of one trace (docs/console.md, "Usage"). */
export function usageRecordHref(traceId: string): string {
  return `#usage?trace_id=${encodeURIComponent(traceId)}`;
}

function TraceId({ value }: { value: string }) {
  return (
    <span class="trace-row">
      <code class="trace" title={value}>
        {value}
      </code>
      <CopyButton value={value} label="Copy trace id" />
      <a href={usageRecordHref(value)}>Usage record</a>
    </span>
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
