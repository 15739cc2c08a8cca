import { generateText, type ModelMessage, streamText } from 'ai';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import {
  AiSdkStreamFailure,
  type AiSdkStreamPart,
  type AiSdkStreamTextResult,
  fromGenerateText,
  fromStreamText,
} from '../../unified/ai-sdk.js';
import type { UnifiedOutput } from '../../unified/types.js';
import { validateUnifiedOutput } from '../../unified/validate-unified-output.js';
import {
  type AttemptInput,
  callWithFallbacks,
  stoppedFailure,
  traceFlagsOf,
} from '../call-with-fallbacks.js';
import {
  type GatewayEnv,
  type GatewayRuntime,
  noteEnvelope,
  respond,
  systemFailure,
} from '../create-gateway.js';
import { STREAM_REQUEST_HEADER } from '../guarded-fetch.js';
import { redactEnvelope } from '../redact-secrets.js';
import type { TextRequest } from '../request-schemas.js';
import { attemptFailure, findUpstreamFault, type UpstreamFault } from '../upstream-fault.js';
import { decorate, serveCall, withPlace } from './serve-call.js';

/** The AI SDK call options of a text request (prompt or messages, instructions, sampling). */
function textCall(body: TextRequest, input: AttemptInput) {
  const model = input.target.provider.text?.(input.target.modelId);
  if (model === undefined) throw new Error('The target has no text model.');
  return {
    model,
    ...(typeof body.input === 'string'
      ? { prompt: body.input }
      : {
          messages: body.input.map((message) => ({ ...message }) as ModelMessage),
          // A request's list may hold system messages (its schema allows the role); the AI SDK refuses them
          // unless told otherwise.
          allowSystemInMessages: true,
        }),
    ...(body.system === undefined ? {} : { instructions: body.system }),
    ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
    ...(body.max_output_tokens === undefined ? {} : { maxOutputTokens: body.max_output_tokens }),
    // The gateway retries (counted in metadata.attempts); the SDK's own retries would be invisible.
    maxRetries: 0,
    abortSignal: input.signal,
    headers: input.headers,
  };
}

/** `POST /v1/text` without streaming. */
export function serveText(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  body: TextRequest,
): Promise<Response> {
  return serveCall(c, runtime, {
    route: 'text',
    modality: 'text',
    model: body.model,
    call: (input) => generateText(textCall(body, input)),
    convert: fromGenerateText,
  });
}

/** A started stream: the parts read so far and the rest of them. */
interface StartedStream {
  result: ReturnType<typeof streamText>;
  head: AiSdkStreamPart[];
  rest: AsyncIterator<AiSdkStreamPart>;
  /** The gateway's own fault behind an error part, when one came (a bound, a stream cut short). */
  fault?: UpstreamFault | undefined;
}

/**
 * Start a stream and read it up to its first text (or its end). An error before any text throws, so it is
 * retried or falls back like any failed call; after the first text, the answer is committed to this target.
 */
async function startStream(body: TextRequest, input: AttemptInput): Promise<StartedStream> {
  // Raw parts carry the provider's own events, so that an error event is read as normalizeStream reads it.
  const result = streamText({
    ...textCall(body, input),
    includeRawChunks: true,
    // The provider fetch then refuses an answer that is not a stream (docs/gateway.md, "Streams").
    headers: { ...input.headers, [STREAM_REQUEST_HEADER]: '1' },
    onError: () => undefined,
  });
  const rest = (result.stream as AsyncIterable<AiSdkStreamPart>)[Symbol.asyncIterator]();
  const head: AiSdkStreamPart[] = [];
  let event: unknown;
  for (;;) {
    const next = await rest.next();
    if (next.done) break;
    const part = next.value;
    if (part.type === 'raw') {
      event = part.rawValue;
      continue;
    }
    if (part.type === 'error')
      throw event === undefined ? part.error : new AiSdkStreamFailure(part.error, event);
    // Aborted before the first text (deadline, client, stop): a failure of the call, answered with its status.
    if (part.type === 'abort') throw input.signal.reason ?? new DOMException('Aborted.', 'AbortError');
    head.push(part);
    if (part.type === 'text-delta' || part.type === 'finish' || part.type === 'abort') break;
  }
  return { result, head, rest };
}

async function* replay(started: StartedStream): AsyncIterable<AiSdkStreamPart> {
  yield* started.head;
  for (;;) {
    let next: IteratorResult<AiSdkStreamPart>;
    try {
      next = await started.rest.next();
    } catch (error) {
      // A broken provider stream rejects the iteration instead of giving an error part.
      started.fault ??= findUpstreamFault(error);
      throw error;
    }
    if (next.done) return;
    if (next.value.type === 'error') started.fault ??= findUpstreamFault(next.value.error);
    yield next.value;
  }
}

/**
 * The started stream as the adapter reads it. The promises of the result are reached only through getters,
 * so they are created only once the stream ended well (a failed stream rejects them, and nobody would listen).
 */
function streamView(started: StartedStream): AiSdkStreamTextResult {
  const source = started.result;
  return {
    stream: replay(started),
    get text() {
      return source.text;
    },
    get finishReason() {
      return source.finishReason;
    },
    get totalUsage() {
      return source.totalUsage;
    },
    get files() {
      return source.files;
    },
    get toolCalls() {
      return source.toolCalls;
    },
    get response() {
      return source.response;
    },
    get providerMetadata() {
      return source.providerMetadata;
    },
  } as AiSdkStreamTextResult;
}

/**
 * `POST /v1/text` with `"stream": true`: server-sent events `delta` (`{"text": …}`) then one `envelope` event
 * holding the complete envelope, equal to the unstreamed answer. A failure before the first text is answered
 * as a plain envelope with its status; a failure after it ends the stream with a failure envelope event.
 */
export function serveTextStream(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  body: TextRequest,
): Promise<Response> {
  const startedAt = performance.now();
  const traceId = c.get('traceId');
  const facts = c.get('facts');
  const clientGone = new AbortController();
  const requestSignal = c.req.raw.signal;
  requestSignal.addEventListener('abort', () => clientGone.abort(requestSignal.reason), { once: true });
  return withPlace(c, runtime, 'text', body.model, async (targets, takeRelease, place) => {
    const outcome = await callWithFallbacks({
      targets,
      traceId,
      reliability: runtime.reliability('text'),
      clientSignal: clientGone.signal,
      call: (input) => startStream(body, input),
      queuedMs: place.queuedMs,
      stopSignal: runtime.stopSignal,
      traceFlags: traceFlagsOf(c.req.header('traceparent'), traceId),
    });
    facts.attempts = outcome.attempts;
    if (outcome.result === undefined) {
      if (clientGone.signal.aborted) facts.clientClosed = true;
      outcome.finish();
      const failure =
        outcome.failure ?? systemFailure('INTERNAL_ERROR', 'The call ended without an answer.', traceId);
      return respond(c, decorate(failure, outcome, undefined, startedAt));
    }
    const { value: started, target, input } = outcome.result;
    facts.target = target.label;
    const release = takeRelease();
    let finished!: () => void;
    facts.pending = new Promise<void>((resolve) => {
      finished = resolve;
    });
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => clientGone.abort(new DOMException('The client went away.', 'AbortError')));
      let envelope: UnifiedOutput;
      const adapter = {
        ...input.adapter,
        model: { provider: target.model?.provider, modelId: target.modelId },
      };
      try {
        envelope = await fromStreamText(streamView(started), adapter, (text) =>
          stream.writeSSE({ event: 'delta', data: JSON.stringify({ text }) }),
        );
        if (started.fault !== undefined) envelope = attemptFailure(started.fault, adapter);
        if (outcome.stopped()) {
          envelope = stoppedFailure(traceId);
        } else if (clientGone.signal.aborted) {
          facts.clientClosed = true;
        } else if (outcome.timedOut()) {
          envelope = systemFailure(
            'PROVIDER_TIMEOUT',
            "The stream did not end within the route's deadline.",
            traceId,
          );
          (envelope as { provider: string }).provider = target.provider.id;
        }
        decorate(envelope, outcome, target, startedAt);
        if (runtime.logContent && envelope.success) facts.content = envelope.content;
        const checked = validateUnifiedOutput(envelope);
        if (!checked.valid) {
          envelope = systemFailure('INTERNAL_ERROR', 'The gateway produced an invalid envelope.', traceId, {
            violations: checked.violations,
          });
        }
        noteEnvelope(facts, envelope);
        envelope = redactEnvelope(envelope, c.get('redactor'));
        await stream.writeSSE({ event: 'envelope', data: JSON.stringify(envelope) });
      } finally {
        outcome.finish();
        release();
        finished();
      }
    });
  });
}
