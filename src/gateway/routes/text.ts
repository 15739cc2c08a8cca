import { experimental_streamTextLowMemory, generateText, type StreamTextEndEvent } from 'ai';
import type { Context } from 'hono';
import {
  AiSdkStreamFailure,
  type AiSdkStreamPart,
  type AiSdkStreamTextResult,
  fromGenerateText,
  fromStreamText,
} from '../../unified/ai-sdk.js';
import { assembleFailure } from '../../unified/assemble-output.js';
import type { UnifiedOutput } from '../../unified/types.js';
import { boundAnswers, checkToolCalls } from '../ai-sdk/bound-answer.js';
import { STREAM_REQUEST_HEADER, StreamTap } from '../ai-sdk/guarded-fetch.js';
import type { ModelOf } from '../ai-sdk/model-types.js';
import { attemptFailure, findUpstreamFault, type UpstreamFault } from '../ai-sdk/upstream-fault.js';
import type { TextStreamWrite } from '../basics/create-event-stream.js';
import { createEventStream, EVENT_STREAM_HEADERS } from '../basics/create-event-stream.js';
import { redactStreamWrite } from '../basics/redact-secrets.js';
import type { ConfigProblem } from '../config/config-problem.js';
import { buildEnvelope, withMetadata } from '../pipeline/build-envelope.js';
import {
  type AttemptInput,
  callWithFallbacks,
  stoppedFailure,
  type Target,
  traceFlagsOf,
} from '../pipeline/call-with-fallbacks.js';
import {
  estimateTokens,
  type GatewayEnv,
  type GatewayRuntime,
  noteCharge,
  noteEnvelope,
  respond,
  systemFailure,
} from '../pipeline/gateway-env.js';
import { ENVELOPE_RENDERER, surfaceHeaders, writeEnvelopeEvents } from '../pipeline/renderer.js';
import { createObjectCheck, type ObjectCheck } from '../pipeline/structured-output.js';
import { type ChatCall, chatFamilyOf, toChatCall } from '../request/chat-request.js';
import { invalidRequest } from '../request/read-request.js';
import type { TextRequest } from '../request/request-schemas.js';
import { callNative, type NativeStream, startNativeStream } from '../wire/call-native.js';
import { withParsedToolArguments } from '../wire/parse-tool-arguments.js';
import type { WireDelta, WireRequest } from '../wire/wire-format.js';
import { serveCall, withPlace } from './serve-call.js';
import { type StreamRecorder, serveThroughCache, textCacheSubject } from './serve-through-cache.js';

/** A text request checked against its targets: each target's AI SDK call options and the answer's check. */
interface PreparedText {
  /** The translated call options, by target label. */
  calls: Map<string, ChatCall>;
  /** The structured-output check, when the request asks for JSON. */
  objects: ObjectCheck | undefined;
  /**
   * The provider requests of the targets spoken to natively, by target label (docs/design.md, "Native wire
   * formats"); a target without one goes through the AI SDK.
   */
  natives: Map<string, WireRequest>;
}

/**
 * Translate the request for every target it may go to (fallbacks included), so that a part or option one of
 * them cannot take is refused before any provider is called. An unknown model is left to the call, which
 * answers it.
 */
function prepareText(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  body: TextRequest,
): { ok: true; prepared: PreparedText } | { ok: false; response: Response } {
  const traceId = c.get('traceId');
  const refuse = (problems: ConfigProblem[], extra: Record<string, unknown> = {}) => {
    const problem = invalidRequest(problems, extra);
    return {
      ok: false as const,
      response: respond(c, systemFailure(problem.code, problem.message, traceId, problem.details)),
    };
  };
  const objects = createObjectCheck(body.response_format);
  if (!objects.ok) return refuse(objects.problems);
  const calls = new Map<string, ChatCall>();
  const natives = new Map<string, WireRequest>();
  const resolved = runtime.resolve(body.model, 'text', traceId);
  for (const target of resolved.ok ? resolved.targets : []) {
    const family = chatFamilyOf(target.provider.type, target.model.provider);
    // The request model's checks hold for both transports: what a target cannot take is refused here.
    const translated = toChatCall(body, target.provider.id, family);
    if (!translated.ok)
      return refuse(translated.problems, { provider: target.provider.id, target: target.label });
    calls.set(target.label, translated.call);
    const native = runtime.natives.get(target.provider.id);
    if (native === undefined) continue;
    const built = native.route.wire.buildRequest(body, {
      provider: target.provider.id,
      type: target.provider.type,
      modelId: target.modelId,
    });
    if (built.ok) natives.set(target.label, built.request);
  }
  return { ok: true, prepared: { calls, objects: objects.check, natives } };
}

/** The AI SDK call options of one attempt: the translated request, the model and the transport. */
function textCall(prepared: PreparedText, input: AttemptInput<ModelOf<'text'>>) {
  const call = prepared.calls.get(input.target.label);
  if (call === undefined) throw new Error('The target was not prepared for this request.');
  return {
    ...call,
    model: boundAnswers(input.target.model),
    // The gateway retries (counted in metadata.attempts); the SDK's own retries would be invisible.
    maxRetries: 0,
    abortSignal: input.signal,
    headers: input.headers,
  };
}

/** The facts of one native attempt. */
function nativeCall(input: AttemptInput<ModelOf<'text'>>, traceId: string) {
  return { provider: input.target.provider.id, traceId, signal: input.signal, headers: input.headers };
}

/**
 * The draft of a native answer, as the gateway answers on either path: tool-call arguments parsed
 * (docs/gateway.md, "Tool calls") and reasoning kept only when the request asked for it ("Reasoning").
 */
function nativeDraft(body: TextRequest, normalized: UnifiedOutput): UnifiedOutput {
  const envelope = withParsedToolArguments(normalized);
  if (!envelope.success || reasoningOf(body, 'asked') !== undefined || !('reasoning' in envelope.metadata))
    return envelope;
  const { reasoning: _reasoning, ...metadata } = envelope.metadata;
  return { ...envelope, metadata };
}

/** Checks a native success's tool calls against the answer bounds; throws the fault of one passed. */
function checkNativeAnswer(envelope: UnifiedOutput): UnifiedOutput {
  const calls = envelope.success ? envelope.metadata.tool_calls : undefined;
  if (Array.isArray(calls)) checkToolCalls(calls);
  return envelope;
}

/** The draft of a text answer: structured output checked, reasoning kept apart from the content. */
function finishText(
  prepared: PreparedText,
  envelope: UnifiedOutput,
  reasoning: string | undefined,
): UnifiedOutput {
  const draft =
    envelope.success && reasoning !== undefined && reasoning !== ''
      ? withMetadata(envelope, { reasoning })
      : envelope;
  return prepared.objects === undefined ? draft : prepared.objects.apply(draft);
}

/**
 * `POST /v1/text` and the drop-in surfaces' text requests, plain or streamed, through the response cache when
 * the gateway has one (docs/gateway.md, "Cache"). A request the gateway refuses never reaches the cache. A
 * drop-in surface gives `forward`, which serves the request itself when it is forwarded as it is
 * (docs/gateway.md, "Same-format forwarding"), once it passed the same checks.
 */
export function serveTextRequest(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  body: TextRequest,
  forward?: () => Promise<Response> | undefined,
): Promise<Response> {
  const checked = prepareText(c, runtime, body);
  if (!checked.ok) return Promise.resolve(checked.response);
  const forwarded = forward?.();
  if (forwarded !== undefined) return forwarded;
  const { prepared } = checked;
  return serveThroughCache(c, runtime, textCacheSubject(body), (recorder) =>
    body.stream === true
      ? serveTextStream(c, runtime, body, prepared, recorder)
      : serveText(c, runtime, body, prepared),
  );
}

/** `POST /v1/text` without streaming. */
function serveText(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  body: TextRequest,
  prepared: PreparedText,
): Promise<Response> {
  const facts = c.get('facts');
  return serveCall(c, runtime, {
    route: 'text',
    model: body.model,
    maxOutputTokens: body.max_output_tokens ?? body.max_tokens ?? body.max_completion_tokens,
    call: async (input): Promise<TextResult> => {
      const wire = prepared.natives.get(input.target.label);
      const native = runtime.natives.get(input.target.provider.id);
      if (wire !== undefined && native !== undefined) {
        return {
          native: checkNativeAnswer(await callNative(native, wire, nativeCall(input, c.get('traceId')))),
        };
      }
      return { sdk: await generateText(textCall(prepared, input)) };
    },
    convert: (result, options) => {
      const answer =
        'native' in result ? nativeDraft(body, result.native) : fromGenerateText(result.sdk, options);
      // Charged before the structured-output check: an answer that fails it was still generated.
      if (answer.success) noteCharge(facts, answer.usage);
      return finishText(
        prepared,
        answer,
        'native' in result ? undefined : reasoningOf(body, result.sdk.reasoningText),
      );
    },
  });
}

/** A plain answer: the native envelope, or the AI SDK's result. */
type TextResult = { native: UnifiedOutput } | { sdk: Awaited<ReturnType<typeof generateText>> };

/** Characters of a request's prompt (system, input and messages as sent), for an estimate of its tokens. */
function promptCharacters(body: TextRequest): number {
  return JSON.stringify([body.system ?? null, body.input ?? null, body.messages ?? null]).length;
}

/** Reasoning text goes to `metadata.reasoning` only when the request asked for reasoning. */
function reasoningOf(body: TextRequest, text: string | undefined): string | undefined {
  return body.reasoning_effort === undefined || body.reasoning_effort === 'none' ? undefined : text;
}

/** A started stream: the parts read so far and the rest of them. */
interface StartedStream {
  result: ReturnType<typeof experimental_streamTextLowMemory>;
  /** What the SDK knows of the answer once the stream ended well (text, files, tool calls, response). */
  end: Promise<StreamTextEndEvent>;
  head: AiSdkStreamPart[];
  rest: AsyncIterator<AiSdkStreamPart>;
  /** The provider's first error event, as the provider fetch kept it. */
  tap: StreamTap;
  /** The gateway's own fault behind an error part, when one came (a bound, a stream cut short). */
  fault?: UpstreamFault | undefined;
}

/**
 * The error of a stream's error part, with the provider's own error event when the stream had one, so that it
 * is read as normalizeStream reads it (the AI SDK's parse of it may drop members that decide its meaning).
 */
function streamError(error: unknown, tap: StreamTap): unknown {
  const event = tap.errorEvent;
  return event === undefined ? error : new AiSdkStreamFailure(error, event);
}

/**
 * Start a stream and read it up to its first text (or its end). An error before any text throws, so it is
 * retried or falls back like any failed call; after the first text, the answer is committed to this target.
 */
async function startStream(
  prepared: PreparedText,
  input: AttemptInput<ModelOf<'text'>>,
): Promise<StartedStream> {
  const tap = new StreamTap();
  let ended!: (event: StreamTextEndEvent) => void;
  const end = new Promise<StreamTextEndEvent>((resolve) => {
    ended = resolve;
  });
  try {
    // The stream has one reader, the envelope: the SDK's single-consumer stream keeps no copy of its parts for
    // other readers, and its end event carries what the envelope needs, so the result's promises (each of which
    // would replay every part of a replaying stream) are never read.
    const result = experimental_streamTextLowMemory({
      ...textCall(prepared, input),
      // The provider fetch then refuses an answer that is not a stream (docs/gateway.md, "Streams"), and keeps
      // the provider's error event for the tap.
      headers: { ...input.headers, [STREAM_REQUEST_HEADER]: tap.id },
      onError: () => undefined,
      onEnd: (event) => ended(event),
    });
    const rest = (result.stream as AsyncIterable<AiSdkStreamPart>)[Symbol.asyncIterator]();
    const head: AiSdkStreamPart[] = [];
    for (;;) {
      const next = await rest.next();
      if (next.done) break;
      const part = next.value;
      if (part.type === 'error') throw streamError(part.error, tap);
      // Aborted before the first text (deadline, client, stop): a failure of the call, answered with its status.
      if (part.type === 'abort') throw input.signal.reason ?? new DOMException('Aborted.', 'AbortError');
      head.push(part);
      if (part.type === 'text-delta' || part.type === 'finish') break;
    }
    return { result, end, head, rest, tap };
  } finally {
    // The fetch has found the tap by now, or never will.
    tap.detach();
  }
}

/** One part of the stream as far as tool calls go (`tool-input-start`, `tool-input-delta`, `tool-call`). */
interface ToolStreamPart extends AiSdkStreamPart {
  readonly id?: unknown;
  readonly toolName?: unknown;
  readonly delta?: unknown;
  readonly toolCallId?: unknown;
  readonly input?: unknown;
}

/** The parts that start or continue a tool call. */
const TOOL_PARTS = new Set(['tool-input-start', 'tool-input-delta', 'tool-call']);

/**
 * Write the events of a tool-call part: a `tool_call_start` event (`{id, name}`) when the model starts a tool
 * call and `tool_call_delta` events (`{id, arguments}`) with the pieces of its arguments. A provider that sends
 * a call in one piece gets one start and one delta holding all its arguments. `begun` holds the calls started.
 */
async function writeToolCallEvents(
  part: ToolStreamPart,
  begun: Set<string>,
  write: TextStreamWrite,
): Promise<void> {
  if (part.type === 'tool-input-start' && typeof part.id === 'string') {
    begun.add(part.id);
    await write('tool_call_start', { id: part.id, name: part.toolName });
  } else if (part.type === 'tool-input-delta' && typeof part.id === 'string' && part.delta !== '') {
    await write('tool_call_delta', { id: part.id, arguments: part.delta });
  } else if (
    part.type === 'tool-call' &&
    typeof part.toolCallId === 'string' &&
    !begun.has(part.toolCallId)
  ) {
    begun.add(part.toolCallId);
    await write('tool_call_start', { id: part.toolCallId, name: part.toolName });
    await write('tool_call_delta', {
      id: part.toolCallId,
      arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}),
    });
  }
}

/**
 * The parts of a started stream, the ones read before it started first, with the tool-call events written as
 * their parts pass and an error part carrying the provider's own error event. One generator for all of it:
 * every layer of async iteration costs promises on every part.
 */
async function* relay(started: StartedStream, write: TextStreamWrite): AsyncIterable<AiSdkStreamPart> {
  const begun = new Set<string>();
  for (const part of started.head) {
    if (TOOL_PARTS.has(part.type)) await writeToolCallEvents(part, begun, write);
    yield part;
  }
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
    const part = next.value;
    if (part.type === 'error') {
      started.fault ??= findUpstreamFault(part.error);
      yield { ...part, error: streamError(part.error, started.tap) };
    } else {
      if (TOOL_PARTS.has(part.type)) await writeToolCallEvents(part, begun, write);
      yield part;
    }
  }
}

/**
 * The started stream as the adapter reads it. Its promises are made only once the stream ended well, from the
 * SDK's end event; the finish reason comes first, since it rejects when the stream ended without a step (the
 * end event never comes then).
 */
function streamView(started: StartedStream, write: TextStreamWrite): AiSdkStreamTextResult {
  const source = started.result;
  const end = () => source.finishReason.then(() => started.end);
  return {
    stream: relay(started, write),
    get text() {
      return end().then((event) => event.text);
    },
    get finishReason() {
      return source.finishReason;
    },
    get totalUsage() {
      return source.totalUsage;
    },
    get files() {
      return end().then((event) => event.files);
    },
    get toolCalls() {
      return end().then((event) => event.toolCalls);
    },
    get response() {
      return end().then((event) => event.response);
    },
    get providerMetadata() {
      return end().then((event) => event.providerMetadata);
    },
  } as AiSdkStreamTextResult;
}

/** The reasoning text of a stream that ended well. */
function streamReasoning(started: StartedStream): PromiseLike<string | undefined> {
  return started.result.finishReason.then(() => started.end).then((event) => event.reasoningText);
}

/** A started stream: native, or through the AI SDK. */
type StartedText = { native: NativeStream } | { sdk: StartedStream };

/** Writes one delta of a native stream as the event the AI SDK path writes for the same part. */
function writeDelta(delta: WireDelta, write: TextStreamWrite): Promise<void> | void {
  switch (delta.type) {
    case 'text':
      return write('delta', { text: delta.text });
    case 'tool_call_start':
      return write('tool_call_start', { id: delta.id, name: delta.name });
    case 'tool_call_delta':
      return write('tool_call_delta', { id: delta.id, arguments: delta.arguments });
    case 'reasoning':
      // Reasoning reaches the client in the envelope's metadata only, as on the AI SDK path.
      return undefined;
  }
}

/**
 * Relay a started native stream to the client, delta by delta, and give the envelope of the whole answer: the
 * normalizer's fold of its events, or the failure that stopped it (a bound passed, the deadline, the client gone).
 */
async function relayNative(
  stream: NativeStream,
  adapter: Parameters<typeof attemptFailure>[1],
  signal: AbortSignal,
  write: (delta: WireDelta) => Promise<void>,
): Promise<UnifiedOutput> {
  try {
    for (const delta of stream.head) await write(delta);
    for (;;) {
      const next = await stream.rest.next();
      if (next.done === true) return checkNativeAnswer(next.value);
      for (const delta of next.value) await write(delta);
    }
  } catch (error) {
    stream.cancel(error);
    if (signal.aborted && findUpstreamFault(error) === undefined) {
      // The client went away; the deadline and the gateway's stop are said by the caller, which knows them.
      return assembleFailure(
        'system',
        'REQUEST_TIMEOUT',
        'The client closed the request before the answer.',
        {},
        { trace_id: adapter.traceId ?? '' },
      );
    }
    return attemptFailure(error, adapter);
  }
}

/**
 * `POST /v1/text` with `"stream": true`: server-sent events `delta` (`{"text": …}`) then one `envelope` event
 * holding the complete envelope, equal to the unstreamed answer. A failure before the first text is answered
 * as a plain envelope with its status; a failure after it ends the stream with a failure envelope event. The
 * request's renderer writes these events in its client's dialect (a drop-in surface's chunks).
 */
function serveTextStream(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  body: TextRequest,
  prepared: PreparedText,
  recorder: StreamRecorder | undefined,
): Promise<Response> {
  const startedAt = performance.now();
  const traceId = c.get('traceId');
  const facts = c.get('facts');
  const clientGone = new AbortController();
  const requestSignal = c.req.raw.signal;
  requestSignal.addEventListener('abort', () => clientGone.abort(requestSignal.reason), { once: true });
  return withPlace(
    c,
    runtime,
    'text',
    body.model,
    async (targets, takeRelease, place) => {
      const outcome = await callWithFallbacks({
        targets,
        traceId,
        reliability: runtime.reliability('text'),
        clientSignal: clientGone.signal,
        call: async (input): Promise<StartedText> => {
          const wire = prepared.natives.get(input.target.label);
          const native = runtime.natives.get(input.target.provider.id);
          if (wire !== undefined && native !== undefined) {
            return { native: await startNativeStream(native, wire, nativeCall(input, traceId)) };
          }
          return { sdk: await startStream(prepared, input) };
        },
        queuedMs: place.queuedMs,
        stopSignal: runtime.stopSignal,
        traceFlags: traceFlagsOf(c.req.header('traceparent'), traceId),
        tracer: c.get('telemetry'),
      });
      facts.attempts = outcome.attempts;
      const callFacts = (target?: Target) => ({
        startedAt,
        attempts: outcome.attempts,
        fallbackFrom: outcome.fallbackFrom,
        target,
        prices: runtime.prices,
      });
      if (outcome.result === undefined) {
        if (clientGone.signal.aborted) facts.clientClosed = true;
        outcome.finish();
        const failure =
          outcome.failure ?? systemFailure('INTERNAL_ERROR', 'The call ended without an answer.', traceId);
        return respond(c, failure, undefined, callFacts());
      }
      const { value: started, target, input } = outcome.result;
      // The call resolved at the stream's first text (startStream).
      c.get('telemetry')?.firstToken();
      facts.target = target.label;
      const release = takeRelease();
      let finished!: () => void;
      facts.pending = new Promise<void>((resolve) => {
        finished = resolve;
      });
      const events = createEventStream(() =>
        clientGone.abort(new DOMException('The client went away.', 'AbortError')),
      );
      const renderer = c.get('renderer') ?? ENVELOPE_RENDERER;
      const rendered = (renderer.openStream ?? writeEnvelopeEvents)(events, traceId);
      const redactor = c.get('redactor');
      const safe = redactor === undefined ? rendered : redactStreamWrite(rendered, redactor);
      const write = recorder === undefined ? safe : recorder.wrap(safe);
      const relay = async () => {
        let envelope: UnifiedOutput;
        const adapter = {
          ...input.adapter,
          model: { provider: target.model.provider, modelId: target.modelId },
        };
        let streamed = 0;
        try {
          if ('native' in started) {
            envelope = await relayNative(started.native, adapter, outcome.signal, async (delta) => {
              if (delta.type === 'text') streamed += delta.text.length;
              await writeDelta(delta, write);
            });
            envelope = nativeDraft(body, envelope);
          } else {
            const sdk = started.sdk;
            envelope = await fromStreamText(streamView(sdk, write), adapter, (text) => {
              streamed += text.length;
              return write('delta', { text });
            });
            if (sdk.fault !== undefined) envelope = attemptFailure(sdk.fault, adapter);
          }
          // Every stream that got this far is charged: what the provider reported, else an estimate of the text
          // sent so far and of the prompt (a client that drops before the last event pays for what it read).
          noteCharge(
            facts,
            envelope.success && envelope.metadata.usage_reported !== false
              ? envelope.usage
              : {
                  input_tokens: estimateTokens(promptCharacters(body)),
                  output_tokens: estimateTokens(streamed),
                },
          );
          if (envelope.success) {
            const reasoning = 'native' in started ? undefined : await streamReasoning(started.sdk);
            envelope = finishText(prepared, envelope, reasoningOf(body, reasoning));
          }
          if (outcome.stopped()) {
            envelope = stoppedFailure(traceId);
          } else if (clientGone.signal.aborted) {
            facts.clientClosed = true;
          } else if (outcome.timedOut()) {
            envelope = assembleFailure(
              target.provider.id,
              'PROVIDER_TIMEOUT',
              "The stream did not end within the route's deadline.",
              {},
              { trace_id: traceId },
            );
          }
          if (runtime.logContent && envelope.success) facts.content = envelope.content;
          const built = buildEnvelope(envelope, callFacts(target), c.get('redactor'));
          noteEnvelope(facts, built);
          await write('envelope', built);
        } finally {
          outcome.finish();
          release();
          finished();
        }
      };
      // The relay never rejects for a provider's failure (that is a failure envelope); anything else is a defect,
      // reported where the process reports its errors, and the stream ends.
      relay()
        .catch((error: unknown) => console.error(error))
        .finally(() => events.close());
      // With its trace id already, so the outer middleware need not rebuild the answer to add it.
      return c.newResponse(events.body, 200, {
        ...EVENT_STREAM_HEADERS,
        ...surfaceHeaders(renderer, traceId, {}),
      });
    },
    body.max_output_tokens ?? body.max_tokens ?? body.max_completion_tokens,
  );
}
