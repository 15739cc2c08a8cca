import type { Context } from 'hono';
import { assembleFailure } from '../../../unified/assemble-output.js';
import type { UnifiedFormat } from '../../../unified/normalize-response.js';
import type { UnifiedOutput } from '../../../unified/types.js';
import { checkToolCalls, MAX_TOOL_CALLS, toolCallsFault } from '../../ai-sdk/bound-answer.js';
import { attemptFailure } from '../../ai-sdk/upstream-fault.js';
import { EVENT_STREAM_HEADERS, type EventStream } from '../../basics/create-event-stream.js';
import { buildEnvelope, type CallFacts } from '../../pipeline/build-envelope.js';
import {
  type AttemptInput,
  callWithFallbacks,
  stoppedFailure,
  type Target,
  traceFlagsOf,
} from '../../pipeline/call-with-fallbacks.js';
import {
  estimateTokens,
  type GatewayEnv,
  type GatewayRuntime,
  noteCharge,
  noteEnvelope,
  respond,
  systemFailure,
} from '../../pipeline/gateway-env.js';
import { ENVELOPE_RENDERER, type Renderer, surfaceHeaders } from '../../pipeline/renderer.js';
import { withPlace } from '../../routes/serve-call.js';
import { costHeaders } from '../../spend/cost-header.js';
import {
  headerRecord,
  isCut,
  type NativeTransport,
  sendNative,
  WireFailure,
} from '../../wire/call-native.js';
import type { WireReadContext, WireStreamReader } from '../../wire/wire-format.js';
import { FrameSplitter, isErrorFrame, isUsageOnlyFrame, type StreamFrame } from './forward-frames.js';
import {
  type ClientFormat,
  decideForwarding,
  type ForwardedRequest,
  type ForwardPlan,
  forwardedRequest,
} from './same-format.js';

/**
 * Serving a forwarded request (docs/gateway.md, "Same-format forwarding"): the client's body goes to each target
 * in turn with only the members the gateway must change, and the provider's answer comes back as it was sent —
 * a plain answer passed through once read (within its bounds), a stream passed through event by event as it
 * arrives — while the same bytes are read by the normalizers `verdict normalize` runs, for the usage, cost,
 * log line, metrics and usage record. Keys, limits, budgets, retries and fallbacks before the first byte, the
 * deadline, the graceful stop and the failure answers in the client's own shape all stay the gateway's.
 */

/** The normalizer format of a target's answers, or `undefined` when it is not spoken to natively. */
export function targetFormatOf(natives: Natives, target: Target): UnifiedFormat | undefined {
  return natives.get(target.provider.id)?.route.wire.format;
}

/** The native transport of a target that was checked to be forwardable. */
function transportOf(natives: Natives, target: Target): NativeTransport {
  const native = natives.get(target.provider.id);
  if (native === undefined) throw new Error(`Target ${target.label} cannot be forwarded to.`);
  return native;
}

/** The native transports of the gateway's providers, by provider id. */
type Natives = GatewayRuntime['natives'];

/** Send the forwarded request of one attempt to its target through its native transport. */
function send(natives: Natives, input: AttemptInput, request: ForwardedRequest): Promise<Response> {
  return sendNative(transportOf(natives, input.target), request, {
    provider: input.target.provider.id,
    traceId: input.adapter.traceId ?? '',
    signal: input.signal,
    headers: input.headers,
  });
}

/** The reading facts of one attempt's answer. */
function readContext(
  input: AttemptInput,
  response: Response,
  startedAt: number,
): WireReadContext & { readonly headers: Record<string, string> } {
  return {
    provider: input.target.provider.id,
    traceId: input.adapter.traceId ?? '',
    status: response.status,
    headers: headerRecord(response.headers),
    latencyMs: Math.round(performance.now() - startedAt),
  };
}

/** The draft with the model id the target was asked for, when the provider's answer named none. */
function withModel(draft: UnifiedOutput, target: Target): UnifiedOutput {
  if (typeof draft.metadata.model === 'string') return draft;
  return { ...draft, metadata: { ...draft.metadata, model: target.modelId } };
}

/** The tokens a request's body stands for at most, estimated from its characters. */
function promptTokens(body: ForwardPlan['body']): number {
  return estimateTokens(
    JSON.stringify(body.messages ?? null).length + JSON.stringify(body.system ?? null).length,
  );
}

/** The output maximum a forwarded body names, for the worst case a dollar budget reserves. */
function maxOutputTokensOf(body: ForwardPlan['body']): number | undefined {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === 'number' ? value : undefined;
}

/**
 * Forward a drop-in request when the rules allow (see `decideForwarding`): the answer, or `undefined` when the
 * translating path must serve it. Called once the request passed the translating path's checks.
 */
export function forwardIfSameFormat(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  format: ClientFormat,
  body: ForwardPlan['body'],
): Promise<Response> | undefined {
  const resolved = runtime.resolve(String(body.model), 'text', c.get('traceId'));
  if (!resolved.ok) return undefined;
  const decision = decideForwarding({
    format,
    body,
    targets: resolved.targets,
    formatOf: (target) => targetFormatOf(runtime.natives, target),
    cacheOn: runtime.cache !== undefined,
  });
  if (!decision.forward) return undefined;
  return serveForwarded(c, runtime, decision.plan);
}

/** Serve a forwarded request, plain or streamed. */
export function serveForwarded(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  plan: ForwardPlan,
): Promise<Response> {
  return plan.body.stream === true ? serveStream(c, runtime, plan) : servePlain(c, runtime, plan);
}

/** A plain answer as received, and its reading. */
interface PlainAnswer {
  readonly text: string;
  readonly envelope: UnifiedOutput;
}

/**
 * One attempt of a plain request: the answer when it is a success, else a thrown {@link WireFailure}. The answer
 * is read by the target's wire format, the reading `verdict normalize` gives the same bytes.
 */
async function callPlain(natives: Natives, plan: ForwardPlan, input: AttemptInput): Promise<PlainAnswer> {
  const startedAt = performance.now();
  const response = await send(natives, input, forwardedRequest(plan, input.target.modelId));
  // The provider fetch reads the body within the gateway's bounds.
  const body = new Uint8Array(await response.arrayBuffer());
  const context = readContext(input, response, startedAt);
  const envelope = withModel(
    transportOf(natives, input.target).route.wire.readAnswer(
      { status: response.status, headers: context.headers, body },
      context,
    ),
    input.target,
  );
  if (!envelope.success) throw new WireFailure(envelope, context.headers);
  // The answer bounds hold as on every path (docs/gateway.md, "Bounds"): past one, the answer is not passed on.
  const calls = envelope.metadata.tool_calls;
  if (Array.isArray(calls)) checkToolCalls(calls);
  return { text: new TextDecoder().decode(body), envelope };
}

/** The facts of a call for its envelope. */
function callFacts(
  runtime: GatewayRuntime,
  startedAt: number,
  outcome: { attempts: number; fallbackFrom: { target: string; code: string }[] },
  target?: Target,
): CallFacts {
  return {
    startedAt,
    attempts: outcome.attempts,
    fallbackFrom: outcome.fallbackFrom,
    target,
    prices: runtime.prices,
  };
}

/** A plain request: the provider's body passed through when it is a success, else the failure in the client's shape. */
function servePlain(c: Context<GatewayEnv>, runtime: GatewayRuntime, plan: ForwardPlan): Promise<Response> {
  const startedAt = performance.now();
  const traceId = c.get('traceId');
  const facts = c.get('facts');
  return withPlace(
    c,
    runtime,
    'text',
    String(plan.body.model),
    async (targets, _take, place) => {
      const outcome = await callWithFallbacks({
        targets,
        traceId,
        reliability: runtime.reliability('text'),
        clientSignal: c.req.raw.signal,
        call: (input) => callPlain(runtime.natives, plan, input),
        queuedMs: place.queuedMs,
        stopSignal: runtime.stopSignal,
        traceFlags: traceFlagsOf(c.req.header('traceparent'), traceId),
        tracer: c.get('telemetry'),
      });
      if (c.req.raw.signal.aborted) facts.clientClosed = true;
      outcome.finish();
      facts.attempts = outcome.attempts;
      const target = outcome.result?.target;
      if (target !== undefined) facts.target = target.label;
      const call = callFacts(runtime, startedAt, outcome, target);
      if (outcome.result === undefined) {
        const failure =
          outcome.failure ?? systemFailure('INTERNAL_ERROR', 'The call ended without an answer.', traceId);
        return respond(c, failure, undefined, call);
      }
      const { text, envelope: draft } = outcome.result.value;
      if (draft.success) noteCharge(facts, draft.usage);
      const envelope = buildEnvelope(draft, call, c.get('redactor'));
      // The answer's reading did not hold (it broke the envelope's rules): answered as the failure it became.
      if (!envelope.success) return respond(c, envelope);
      noteEnvelope(facts, envelope);
      if (runtime.logContent) facts.content = envelope.content;
      const renderer = c.get('renderer') ?? ENVELOPE_RENDERER;
      return new Response(c.get('redactor').redactConfigured(text), {
        status: 200,
        headers: {
          'content-type': 'application/json',
          ...surfaceHeaders(renderer, traceId, costHeaders(envelope.metadata.cost)),
        },
      });
    },
    maxOutputTokensOf(plan.body),
  );
}

/** What a stream's reader gave so far: tool calls started, and characters of text, reasoning and arguments. */
interface Counted {
  calls: number;
  characters: number;
}

/**
 * Feeds a chunk to the stream's reader: whether it gave deltas (the answer began or went on). The tool calls are
 * counted against the answer bound as they start; past it the stream fails as on every path.
 */
function pushChunk(reader: WireStreamReader, chunk: Uint8Array, counted: Counted): boolean {
  const deltas = reader.push(chunk);
  for (const delta of deltas) {
    if (delta.type === 'tool_call_start') {
      if (++counted.calls > MAX_TOOL_CALLS) throw toolCallsFault();
    } else {
      counted.characters += delta.type === 'tool_call_delta' ? delta.arguments.length : delta.text.length;
    }
  }
  return deltas.length > 0;
}

/** A stream that started: what was read before its first answer event, and the rest of it. */
interface StartedStream {
  /** The target's reader of the stream, fed every byte: the envelope at the end is the offline one. */
  readonly reader: WireStreamReader;
  /** The frames read before the stream was committed, passed to the client first. */
  readonly head: readonly StreamFrame[];
  /** The rest of the provider's body. */
  readonly body: ReadableStreamDefaultReader<Uint8Array>;
  /** The splitter, part way through the body. */
  readonly splitter: FrameSplitter;
  /** The envelope, when the body ended before an answer event (the whole stream was read). */
  readonly ended: UnifiedOutput | undefined;
  /** The forwarded request, for what the client asked of it. */
  readonly request: ForwardedRequest;
  /** What the reader gave so far. */
  readonly counted: Counted;
}

/** The next piece of a stream's body: its bytes, or its end (a cut stream ends as the normalizer judges it). */
async function readNext(
  body: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal,
): Promise<Uint8Array | undefined> {
  try {
    const next = await body.read();
    return next.done ? undefined : next.value;
  } catch (error) {
    // The stream stopped short: what was read is judged as the same bytes captured (docs/unified.md, "Streams").
    if (isCut(error) && !signal.aborted) return undefined;
    throw error;
  }
}

/**
 * Start a stream and read it up to its first answer event (or its end): a failure before it — an error status,
 * an error event, a stream cut short — throws, so it is retried or falls back like any failed call; from the
 * first answer event on, the answer is committed to this target.
 */
async function startStream(natives: Natives, plan: ForwardPlan, input: AttemptInput): Promise<StartedStream> {
  const startedAt = performance.now();
  const request = forwardedRequest(plan, input.target.modelId);
  const response = await send(natives, input, request);
  const context = readContext(input, response, startedAt);
  const reader = transportOf(natives, input.target).route.wire.openStream(context);
  const body = response.body?.getReader();
  const splitter = new FrameSplitter();
  const head: StreamFrame[] = [];
  let answered = false;
  const counted: Counted = { calls: 0, characters: 0 };
  const fail = (envelope: UnifiedOutput) => {
    body?.cancel().catch(() => undefined);
    if (!envelope.success) throw new WireFailure(envelope, context.headers);
  };
  for (;;) {
    const chunk = body === undefined ? undefined : await readNext(body, input.signal);
    if (chunk === undefined) {
      const ended = withModel(reader.end(), input.target);
      // A stream refused with an error status, or one that ended before it began, fails the attempt.
      if (!answered) fail(ended);
      head.push(...splitter.end());
      if (body === undefined) throw new Error('A stream without a body cannot be committed.');
      return { reader, head, body, splitter, ended, request, counted };
    }
    if (response.ok) head.push(...splitter.push(chunk));
    // The reader's deltas stop at an error event: deltas before it mean the answer began first.
    try {
      if (pushChunk(reader, chunk, counted)) answered = true;
    } catch (error) {
      body?.cancel(error).catch(() => undefined);
      throw error;
    }
    const failure = reader.failure();
    if (failure !== undefined && !answered) fail(withModel(failure, input.target));
    if (answered && body !== undefined) {
      return { reader, head, body, splitter, ended: undefined, request, counted };
    }
  }
}

/** The frame text of a failure in the client's stream dialect, written by its surface's renderer. */
async function failureFrame(renderer: Renderer, failure: UnifiedOutput, traceId: string): Promise<string> {
  let text = '';
  const capture: EventStream = {
    body: new ReadableStream(),
    write: (event, data) => {
      text += `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      return Promise.resolve();
    },
    send: (frame) => {
      text += frame;
      return Promise.resolve();
    },
    close: () => undefined,
  };
  await renderer.openStream?.(capture, traceId)('envelope', failure);
  return text;
}

/**
 * A streamed request: a failure before the first answer event is answered as a plain failure in the client's
 * shape with its status; after it, the provider's events pass through as they arrive, and a failure (an error
 * event, a stream cut short, the deadline, the gateway's stop) ends the stream with an error event in the
 * client's dialect.
 */
function serveStream(c: Context<GatewayEnv>, runtime: GatewayRuntime, plan: ForwardPlan): Promise<Response> {
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
    String(plan.body.model),
    async (targets, takeRelease, place) => {
      const outcome = await callWithFallbacks({
        targets,
        traceId,
        reliability: runtime.reliability('text'),
        clientSignal: clientGone.signal,
        call: (input) => startStream(runtime.natives, plan, input),
        queuedMs: place.queuedMs,
        stopSignal: runtime.stopSignal,
        traceFlags: traceFlagsOf(c.req.header('traceparent'), traceId),
        tracer: c.get('telemetry'),
      });
      facts.attempts = outcome.attempts;
      if (outcome.result === undefined) {
        if (clientGone.signal.aborted) facts.clientClosed = true;
        outcome.finish();
        const failure =
          outcome.failure ?? systemFailure('INTERNAL_ERROR', 'The call ended without an answer.', traceId);
        return respond(c, failure, undefined, callFacts(runtime, startedAt, outcome));
      }
      const { value: started, target, input } = outcome.result;
      c.get('telemetry')?.firstToken();
      facts.target = target.label;
      const release = takeRelease();
      let finished!: () => void;
      facts.pending = new Promise<void>((resolve) => {
        finished = resolve;
      });
      const renderer = c.get('renderer') ?? ENVELOPE_RENDERER;
      const redactor = c.get('redactor');
      const format = plan.format;
      const encoder = new TextEncoder();
      const { reader } = started;
      let over = false;
      let errorSeen = false;
      /**
       * The frames the client gets: all up to an error event but the usage chunk it did not ask for. The error
       * event itself, and anything after it, is replaced by the failure in the client's dialect at the end.
       */
      const passed = (list: readonly StreamFrame[]): string => {
        let text = '';
        for (const frame of list) {
          if (errorSeen || isErrorFrame(format, frame)) {
            errorSeen = true;
            continue;
          }
          if (!started.request.clientAskedUsage && isUsageOnlyFrame(format, frame)) continue;
          text += redactor.redactConfigured(frame.text);
        }
        return text;
      };
      /** The stream is over: its envelope built once from what was read, the request's bookkeeping settled. */
      const finish = (ending: UnifiedOutput | undefined): UnifiedOutput => {
        over = true;
        let envelope = withModel(ending ?? reader.end(), target);
        if (outcome.stopped()) envelope = stoppedFailure(traceId);
        else if (clientGone.signal.aborted) facts.clientClosed = true;
        else if (outcome.timedOut()) {
          envelope = assembleFailure(
            target.provider.id,
            'PROVIDER_TIMEOUT',
            "The stream did not end within the route's deadline.",
            {},
            { trace_id: traceId },
          );
        }
        // Every stream that got this far is charged: what the provider reported, else an estimate of the prompt
        // and of the text read so far (a client that drops before the end pays for what it was sent).
        noteCharge(
          facts,
          envelope.success && envelope.metadata.usage_reported !== false
            ? envelope.usage
            : {
                input_tokens: promptTokens(plan.body),
                output_tokens: estimateTokens(started.counted.characters),
              },
        );
        if (runtime.logContent && envelope.success) facts.content = envelope.content;
        const built = buildEnvelope(envelope, callFacts(runtime, startedAt, outcome, target), redactor);
        noteEnvelope(facts, built);
        outcome.finish();
        release();
        finished();
        return built;
      };
      /** Ends the client's stream with `ending` (a failure in the client's dialect) after what it got. */
      const endWith = async (
        controller: ReadableStreamDefaultController<Uint8Array>,
        ending: UnifiedOutput,
      ) => {
        const built = finish(ending);
        const text = built.success ? '' : await failureFrame(renderer, built, traceId);
        if (text !== '') controller.enqueue(encoder.encode(text));
        controller.close();
      };
      /** Ends the client's stream with what was read: a failure in the client's dialect after what it got. */
      const end = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
        const envelope = finish(undefined);
        if (!envelope.success) {
          const text = await failureFrame(renderer, envelope, traceId);
          if (text !== '') controller.enqueue(encoder.encode(text));
        }
        controller.close();
      };
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const head = passed(started.head);
          if (head !== '') controller.enqueue(encoder.encode(head));
        },
        async pull(controller) {
          if (over) return;
          if (started.ended !== undefined) return endWith(controller, started.ended);
          if (reader.failure() !== undefined) {
            // An error event came with the answer's first events: the answer ends with it.
            started.body.cancel().catch(() => undefined);
            return end(controller);
          }
          // A chunk may complete no frame (an event written in pieces): reading goes on until the client gets
          // something or the stream ends, since the stream asks for more only after an enqueue, and the deadline
          // and the bounds are checked only here.
          for (;;) {
            let chunk: Uint8Array | undefined;
            try {
              chunk = await readNext(started.body, input.signal);
              if (chunk !== undefined) pushChunk(reader, chunk, started.counted);
            } catch (thrown) {
              // A bound passed, the deadline or the stop: said in the client's dialect.
              started.body.cancel(thrown).catch(() => undefined);
              await endWith(controller, attemptFailure(thrown, input.adapter));
              return;
            }
            const fresh = chunk === undefined ? started.splitter.end() : started.splitter.push(chunk);
            const text = passed(fresh);
            if (text !== '') controller.enqueue(encoder.encode(text));
            if (chunk === undefined) return end(controller);
            if (reader.failure() !== undefined) {
              // An error event ends the answer: the provider's connection is let go.
              started.body.cancel().catch(() => undefined);
              await end(controller);
              return;
            }
            if (text !== '') return;
          }
        },
        cancel(reason) {
          clientGone.abort(reason ?? new DOMException('The client went away.', 'AbortError'));
          started.body.cancel(reason).catch(() => undefined);
          if (!over) finish(undefined);
        },
      });
      return c.newResponse(body, 200, { ...EVENT_STREAM_HEADERS, ...surfaceHeaders(renderer, traceId, {}) });
    },
    maxOutputTokensOf(plan.body),
  );
}
