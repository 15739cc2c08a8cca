import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { MediaItem } from '../types.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import { openAiFailure } from './openai-failure.js';
import { openAiUsage } from './openai-usage.js';
import {
  contentFiltered,
  expectArray,
  expectObject,
  type FailureOutcome,
  type Json,
  type Outcome,
  optionalLabel,
  optionalString,
  ShapeError,
  StreamCutError,
} from './provider-outcome.js';

/**
 * Output items that ask the client to act with one of OpenAI's built-in client-side tools, with the tool's name
 * and the member holding what to do. They are tool calls like `function_call`, answered by the client with the
 * matching `*_output` item (docs/unified.md, "Tool calls").
 */
const CLIENT_ACTIONS = {
  local_shell_call: { name: 'local_shell', input: 'action' },
  apply_patch_call: { name: 'apply_patch', input: 'operation' },
} as const;

/** A client-side tool call as `metadata.tool_calls` holds it: its type, and what to do as JSON `arguments`. */
function clientAction(item: Json, type: keyof typeof CLIENT_ACTIONS): Json {
  const { name, input } = CLIENT_ACTIONS[type];
  const action = item[input];
  if (!isJsonObject(action)) throw new ShapeError(`A ${type} item has no \`${input}\` object.`);
  return omitUndefined({ id: item.call_id, type, name, arguments: JSON.stringify(action) });
}

/** Parse a Responses API `response` object into an outcome. */
export function parseResponse(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (root.object !== undefined && root.object !== 'response' && isJsonObject(root.error))
    return openAiFailure(root, status);
  if (root.object === undefined && root.output === undefined && isJsonObject(root.error))
    return openAiFailure(root, status);
  const state = optionalString(root.status, '`status`');
  if (state === undefined) throw new ShapeError('The response has no `status`.');
  const metadata = omitUndefined({
    model: optionalLabel(root.model, '`model`'),
    response_id: optionalLabel(root.id, '`id`'),
  });
  if (state === 'failed' || state === 'cancelled') {
    const failure = openAiFailure(
      { error: isJsonObject(root.error) ? root.error : { message: `The response ${state}.` } },
      status,
    );
    return { ...failure, metadata: { ...metadata, finish_reason: 'error' } };
  }
  const texts: string[] = [];
  const calls: Json[] = [];
  const media: MediaItem[] = [];
  const reasoning: string[] = [];
  let refusal: string | undefined;
  for (const entry of expectArray(root.output, '`output`')) {
    const item = expectObject(entry, 'An output item');
    if (item.type === 'reasoning') {
      // The reasoning summary (or, for models that show it, the reasoning itself) is not the answer
      // (docs/unified.md, "Reasoning").
      for (const list of [item.summary, item.content]) {
        for (const part of Array.isArray(list) ? list : []) {
          if (isJsonObject(part) && typeof part.text === 'string' && part.text !== '')
            reasoning.push(part.text);
        }
      }
    } else if (item.type === 'message') {
      const parts = expectArray(item.content, 'A message content');
      const text = parts
        .map((part) => {
          if (!isJsonObject(part)) return '';
          if (part.type === 'refusal' && typeof part.refusal === 'string')
            refusal = (refusal ?? '') + part.refusal;
          return part.type === 'output_text' && typeof part.text === 'string' ? part.text : '';
        })
        .join('');
      if (text !== '') texts.push(text);
    } else if (item.type === 'function_call') {
      calls.push(omitUndefined({ id: item.call_id, name: item.name, arguments: item.arguments }));
    } else if (typeof item.type === 'string' && Object.hasOwn(CLIENT_ACTIONS, item.type)) {
      calls.push(clientAction(item, item.type as keyof typeof CLIENT_ACTIONS));
    } else if (item.type === 'image_generation_call' && typeof item.result === 'string') {
      const format = typeof item.output_format === 'string' ? item.output_format : 'png';
      media.push(
        omitUndefined({
          data: item.result,
          media_type: `image/${format}`,
          revised_prompt: item.revised_prompt,
        }) as MediaItem,
      );
    }
  }
  if (refusal !== undefined) return contentFiltered(refusal, { refusal }, metadata);
  const reason = isJsonObject(root.incomplete_details) ? root.incomplete_details.reason : undefined;
  if (state === 'incomplete' && reason === 'content_filter') {
    const details = { incomplete_reason: reason };
    return contentFiltered('The provider stopped the output with its content filter.', details, metadata);
  }
  if (state === 'queued' || state === 'in_progress') {
    return {
      kind: 'success',
      content: '',
      usage: openAiUsage(root.usage),
      metadata: { ...metadata, job_status: 'pending' },
    };
  }
  if (state !== 'completed' && state !== 'incomplete')
    throw new ShapeError(`Unknown response status ${JSON.stringify(state)}.`);
  const finish =
    state === 'incomplete'
      ? reason === 'max_output_tokens'
        ? 'length'
        : 'other'
      : calls.length > 0
        ? 'tool_calls'
        : 'stop';
  return {
    kind: 'success',
    content: texts.join('\n\n'),
    usage: openAiUsage(root.usage),
    media,
    metadata: omitUndefined({
      ...metadata,
      finish_reason: finish,
      tool_calls: calls.length > 0 ? calls : undefined,
      reasoning: reasoning.length > 0 ? reasoning.join('\n\n') : undefined,
    }),
  };
}

const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * The failure of a Responses stream `error` event, whose code and message sit at its top level or inside
 * `error`; a `response.failed` event is read as its failed response. `undefined` for any other event.
 */
function responsesStreamError(event: unknown): FailureOutcome | undefined {
  if (!isJsonObject(event)) return undefined;
  if (event.type === 'error')
    return openAiFailure({ error: isJsonObject(event.error) ? event.error : event }, 200);
  if (event.type === 'response.failed' && isJsonObject(event.response)) {
    const outcome = parseResponse({ output: [], ...event.response, status: 'failed' }, 200);
    return outcome.kind === 'failure' ? outcome : undefined;
  }
  return undefined;
}

/** Fold Responses API stream events into the final `response`; an `error` event ends the stream as a failure. */
function assembleResponsesStream(events: readonly unknown[]): StreamAssembly {
  for (const event of events) {
    const item = expectObject(event, 'A stream event');
    if (item.type === 'error') return responsesStreamError(item) ?? openAiFailure(item, 200);
    if (typeof item.type === 'string' && TERMINAL_EVENTS.has(item.type)) {
      return { kind: 'body', body: expectObject(item.response, `\`${item.type}\`.response`) };
    }
  }
  throw new StreamCutError(
    'The stream ended before response.completed, response.incomplete or response.failed.',
  );
}

/** `openai.responses`: the OpenAI Responses API. */
export const openAiResponses: FormatSpec = {
  provider: 'openai',
  aiSdkProviders: ['openai.responses', '*.responses'],
  requestIdHeaders: ['x-request-id'],
  parseSuccess: (body, context) => parseResponse(body, context.status),
  parseError: (body, status, text) => openAiFailure(body, status, text),
  assembleStream: assembleResponsesStream,
  parseStreamError: responsesStreamError,
};
