/**
 * Bounds of a model's answer, checked on what the provider package parsed before the AI SDK's core converts it
 * (docs/gateway.md, "Bounds"): that conversion costs time quadratic in the tool calls of an answer (50 000
 * calls held the event loop for seconds) and reads tool arguments recursively (deep nesting overflows the
 * stack). Past a bound the answer is the provider's fault, `INVALID_PROVIDER_RESPONSE`, never retried.
 */
import { UpstreamFault } from './upstream-fault.js';

/** Tool calls one answer may hold. */
export const MAX_TOOL_CALLS = 1024;
/** Content parts (text, reasoning, tool calls, files, sources) one answer may hold; stream parts are not counted. */
export const MAX_ANSWER_PARTS = 4096;
/** Nesting of arrays and objects one tool call's arguments may reach. */
export const MAX_TOOL_ARGUMENT_DEPTH = 128;

/** The part of an AI SDK language model (V2 or V3) the bound wraps. */
interface CallableModel {
  doGenerate(options: never): PromiseLike<{ content: readonly unknown[] }>;
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/**
 * The model with its answers bounded: it answers as `model` does (its id, provider and supported URLs come
 * through its prototype), and fails with an {@link UpstreamFault} for an answer past a bound.
 */
export function boundAnswers<M extends CallableModel>(model: M): M {
  const bounded = Object.create(model) as M;
  bounded.doGenerate = (async (options: never) => {
    const result = await model.doGenerate(options);
    checkContent(result.content);
    return result;
  }) as M['doGenerate'];
  bounded.doStream = (async (options: never) => {
    const result = await model.doStream(options);
    return { ...result, stream: result.stream.pipeThrough(createStreamBound()) };
  }) as M['doStream'];
  return bounded;
}

function checkContent(content: readonly unknown[]): void {
  if (content.length > MAX_ANSWER_PARTS) throw partsFault();
  let calls = 0;
  for (const part of content) {
    if (!isToolCall(part)) continue;
    if (++calls > MAX_TOOL_CALLS) throw callsFault();
    checkDepth(part.input);
  }
}

/**
 * Checks the tool calls of a native answer (its envelope's `metadata.tool_calls`, arguments as JSON text or a
 * value) against the same bounds; throws the {@link UpstreamFault} of the first one passed.
 */
export function checkToolCalls(calls: readonly unknown[]): void {
  if (calls.length > MAX_TOOL_CALLS) throw callsFault();
  for (const call of calls) checkDepth((call as { arguments?: unknown } | null)?.arguments);
}

/** The fault of a stream whose tool calls passed {@link MAX_TOOL_CALLS}, for a reader that counts them itself. */
export function toolCallsFault(): UpstreamFault {
  return callsFault();
}

/** Counts the tool calls of a stream as they come; the stream fails at the first one past the bound. */
function createStreamBound(): TransformStream<unknown, unknown> {
  let calls = 0;
  return new TransformStream({
    transform(part, controller) {
      if (isToolCall(part)) {
        if (++calls > MAX_TOOL_CALLS) throw callsFault();
        checkDepth(part.input);
      }
      controller.enqueue(part);
    },
  });
}

function isToolCall(part: unknown): part is { type: 'tool-call'; input: unknown } {
  return (part as { type?: unknown } | null)?.type === 'tool-call';
}

/** Fails when JSON text nests arrays and objects deeper than the bound; read in one pass, strings skipped. */
function checkDepth(input: unknown): void {
  if (typeof input !== 'string') return;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_TOOL_ARGUMENT_DEPTH) {
        throw new UpstreamFault(
          'INVALID_PROVIDER_RESPONSE',
          `A tool call's arguments nest deeper than ${MAX_TOOL_ARGUMENT_DEPTH} levels.`,
          { bound: 'max_tool_argument_depth', max_tool_argument_depth: MAX_TOOL_ARGUMENT_DEPTH },
          false,
        );
      }
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
}

function callsFault(): UpstreamFault {
  return new UpstreamFault(
    'INVALID_PROVIDER_RESPONSE',
    `The answer holds more than ${MAX_TOOL_CALLS} tool calls.`,
    { bound: 'max_tool_calls', max_tool_calls: MAX_TOOL_CALLS },
    false,
  );
}

function partsFault(): UpstreamFault {
  return new UpstreamFault(
    'INVALID_PROVIDER_RESPONSE',
    `The answer holds more than ${MAX_ANSWER_PARTS} parts.`,
    { bound: 'max_answer_parts', max_answer_parts: MAX_ANSWER_PARTS },
    false,
  );
}
