import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { FinishReason } from '../types.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import { openAiFailure } from './openai-failure.js';
import { openAiUsage } from './openai-usage.js';
import {
  contentFiltered,
  expectArray,
  expectObject,
  type Json,
  type Outcome,
  optionalLabel,
  optionalString,
  ShapeError,
  StreamCutError,
} from './provider-outcome.js';

/** Legacy Completions `finish_reason` values and what they normalize to; unknown values are `other`. */
const COMPLETION_FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
};

/** Parse a legacy Completions body (`object: "text_completion"`): the first choice's `text` is the answer. */
function parseCompletion(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (root.error !== undefined && root.error !== null && root.choices === undefined)
    return openAiFailure(root, status);
  const first = expectArray(root.choices, '`choices`')[0];
  if (first === undefined) throw new ShapeError('`choices` is empty.');
  const choice = expectObject(first, 'The first choice');
  const text = optionalString(choice.text, '`choices[0].text`');
  if (text === undefined) throw new ShapeError('The first choice has no `text`.');
  const rawFinish = optionalString(choice.finish_reason, '`finish_reason`');
  const finish = rawFinish === undefined ? undefined : (COMPLETION_FINISH_REASONS[rawFinish] ?? 'other');
  const metadata = omitUndefined({
    model: optionalLabel(root.model, '`model`'),
    response_id: optionalLabel(root.id, '`id`'),
    finish_reason: finish,
  });
  if (finish === 'content_filter') {
    const details = { provider_finish_reason: rawFinish };
    return contentFiltered('The provider stopped the output with its content filter.', details, metadata);
  }
  return { kind: 'success', content: text, usage: openAiUsage(root.usage), metadata };
}

/**
 * Fold Completions chunks (`stream: true`, the same `text_completion` objects with pieces of `text`) into the
 * equivalent body; the usage chunk of `stream_options.include_usage` has no choices. An error chunk ends the
 * stream.
 */
function assembleCompletionStream(events: readonly unknown[]): StreamAssembly {
  const root: Json = {};
  let text = '';
  let finish: string | undefined;
  for (const event of events) {
    const chunk = expectObject(event, 'A stream chunk');
    if (chunk.error !== undefined && chunk.error !== null) return openAiFailure(chunk, 200);
    for (const key of ['id', 'model', 'created'] as const)
      if (chunk[key] !== undefined) root[key] = chunk[key];
    if (chunk.usage !== undefined && chunk.usage !== null) root.usage = chunk.usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const choice = choices.find((item): item is Json => isJsonObject(item) && (item.index ?? 0) === 0);
    if (choice === undefined) continue;
    if (typeof choice.text === 'string') text += choice.text;
    if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
  }
  if (finish === undefined) throw new StreamCutError('The stream ended before a choice finished.');
  return {
    kind: 'body',
    body: { ...root, object: 'text_completion', choices: [{ index: 0, text, finish_reason: finish }] },
  };
}

/** `openai.completions`: the legacy Completions API (`/v1/completions`), still served by many compatible servers. */
export const openAiCompletions: FormatSpec = {
  provider: 'openai',
  requestIdHeaders: ['x-request-id'],
  parseSuccess: (body, context) => parseCompletion(body, context.status),
  parseError: (body, status, text) => openAiFailure(body, status, text),
  assembleStream: assembleCompletionStream,
};
