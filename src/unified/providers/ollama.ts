import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { FinishReason } from '../types.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import {
  bodySnippet,
  expectArray,
  expectObject,
  type FailureOutcome,
  failureForStatus,
  type Json,
  type Outcome,
  optionalLabel,
  optionalString,
  type ReportedUsage,
  ShapeError,
  StreamCutError,
  tokenCount,
} from './provider-outcome.js';

/**
 * Ollama `done_reason` values and what they normalize to: `load` and `unload` answer a request that only loaded or
 * unloaded the model (an empty prompt); unknown values are `other`.
 */
const DONE_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  load: 'stop',
  unload: 'stop',
};

/** The failure an Ollama error body (`{ "error": "model 'x' not found" }`) stands for; its status decides. */
function ollamaFailure(body: unknown, status: number, text: string): FailureOutcome {
  const error = isJsonObject(body) ? body.error : undefined;
  const message =
    typeof error === 'string'
      ? error
      : isJsonObject(error) && typeof error.message === 'string'
        ? error.message
        : bodySnippet(text);
  return failureForStatus(status, message, omitUndefined({ provider_error: error }));
}

/**
 * Ollama usage: `prompt_eval_count` and `eval_count`. A prompt served whole from Ollama's prompt cache reports no
 * `prompt_eval_count`; it is then 0, as Ollama counts it.
 */
function ollamaUsage(root: Json): ReportedUsage | undefined {
  const input = tokenCount(root.prompt_eval_count, '`prompt_eval_count`');
  const output = tokenCount(root.eval_count, '`eval_count`');
  if (input === undefined && output === undefined) return undefined;
  return { input: input ?? 0, output: output ?? 0, details: omitUndefined({}) };
}

/** Durations Ollama reports in nanoseconds, as milliseconds for metadata. */
function durations(root: Json): Record<string, number | undefined> {
  const ms = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value / 1e6) : undefined;
  return {
    total_duration_ms: ms(root.total_duration),
    load_duration_ms: ms(root.load_duration),
    prompt_eval_duration_ms: ms(root.prompt_eval_duration),
    eval_duration_ms: ms(root.eval_duration),
  };
}

/** Tool calls of an Ollama chat message (`{ function: { name, arguments } }`, arguments an object). */
function ollamaToolCalls(value: unknown): Json[] | undefined {
  if (value === undefined || value === null) return undefined;
  const calls = expectArray(value, '`message.tool_calls`').map((item) => {
    const call = expectObject(item, 'A tool call');
    const fn = isJsonObject(call.function) ? call.function : {};
    return omitUndefined({ id: call.id, name: fn.name, arguments: fn.arguments });
  });
  return calls.length > 0 ? calls : undefined;
}

/** Parse a final Ollama body: `message` for `/api/chat`, `response` for `/api/generate`. */
function parseOllama(body: unknown, status: number, kind: 'chat' | 'generate'): Outcome {
  const root = expectObject(body, 'The body');
  if (root.error !== undefined && root.error !== null && root.done === undefined)
    return ollamaFailure(root, status, '');
  if (root.done !== true) throw new ShapeError('The body is not final (`done` is not true).');
  const rawDone = optionalString(root.done_reason, '`done_reason`');
  let text: string;
  let calls: Json[] | undefined;
  if (kind === 'chat') {
    const message = expectObject(root.message, '`message`');
    text = optionalString(message.content, '`message.content`') ?? '';
    calls = ollamaToolCalls(message.tool_calls);
  } else {
    const response = optionalString(root.response, '`response`');
    if (response === undefined) throw new ShapeError('The body has no `response`.');
    text = response;
  }
  const finish: FinishReason | undefined =
    calls !== undefined
      ? 'tool_calls'
      : rawDone === undefined
        ? undefined
        : (DONE_REASONS[rawDone] ?? 'other');
  return {
    kind: 'success',
    content: text,
    usage: ollamaUsage(root),
    metadata: omitUndefined({
      model: optionalLabel(root.model, '`model`'),
      created_at: optionalLabel(root.created_at, '`created_at`'),
      finish_reason: finish,
      tool_calls: calls,
      ...durations(root),
    }),
  };
}

/**
 * Fold an Ollama NDJSON stream (the default of `/api/chat` and `/api/generate`) into the final body: each line
 * carries a piece of `message.content` (or `response`), the last one has `done: true` with the counts and
 * durations. An `{ "error": … }` line ends the stream as a failure.
 */
function assembleOllamaStream(kind: 'chat' | 'generate') {
  return (events: readonly unknown[]): StreamAssembly => {
    let text = '';
    let thinking = '';
    const calls: unknown[] = [];
    for (const event of events) {
      const chunk = expectObject(event, 'A stream line');
      if (chunk.error !== undefined && chunk.error !== null) {
        return ollamaFailure(chunk, 200, '');
      }
      const message = isJsonObject(chunk.message) ? chunk.message : {};
      const piece = kind === 'chat' ? message.content : chunk.response;
      if (typeof piece === 'string') text += piece;
      const thought = kind === 'chat' ? message.thinking : chunk.thinking;
      if (typeof thought === 'string') thinking += thought;
      if (Array.isArray(message.tool_calls)) calls.push(...message.tool_calls);
      if (chunk.done === true) {
        const { message: _last, response: _response, thinking: _thinking, ...facts } = chunk;
        const body: Json =
          kind === 'chat'
            ? {
                ...facts,
                message: omitUndefined({
                  role: 'assistant',
                  content: text,
                  thinking: thinking === '' ? undefined : thinking,
                  tool_calls: calls.length > 0 ? calls : undefined,
                }),
              }
            : omitUndefined({ ...facts, response: text, thinking: thinking === '' ? undefined : thinking });
        return { kind: 'body', body };
      }
    }
    throw new StreamCutError('The stream ended before a line with `done: true`.');
  };
}

function ollamaFormat(kind: 'chat' | 'generate'): FormatSpec {
  return {
    provider: 'ollama',
    // Ollama sends no request id of its own.
    requestIdHeaders: ['x-request-id'],
    parseSuccess: (body, context) => parseOllama(body, context.status, kind),
    parseError: (body, status, text) => ollamaFailure(body, status, text),
    assembleStream: assembleOllamaStream(kind),
  };
}

/** `ollama.chat`: Ollama's native `/api/chat`, one JSON body or its NDJSON stream. */
export const ollamaChat: FormatSpec = ollamaFormat('chat');

/** `ollama.generate`: Ollama's native `/api/generate`, one JSON body or its NDJSON stream. */
export const ollamaGenerate: FormatSpec = ollamaFormat('generate');
