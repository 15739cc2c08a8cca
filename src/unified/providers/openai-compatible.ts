import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import { mediaItemFromUrl } from '../classify-media.js';
import type { FinishReason, MediaItem } from '../types.js';
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
  streamIndex,
} from './provider-outcome.js';

/** Chat Completions `finish_reason` values and what they normalize to; unknown values are `other`. */
const CHAT_FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  error: 'error',
};

function toolCalls(value: unknown): Json[] | undefined {
  if (value === undefined || value === null) return undefined;
  return expectArray(value, '`tool_calls`').map((item) => {
    const call = expectObject(item, 'A tool call');
    const fn = isJsonObject(call.function) ? call.function : {};
    return omitUndefined({ id: call.id, name: fn.name, arguments: fn.arguments });
  });
}

function messageImages(value: unknown): MediaItem[] {
  // OpenRouter and some compatible servers return generated images as `message.images[].image_url.url`.
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const url = isJsonObject(item) && isJsonObject(item.image_url) ? item.image_url.url : undefined;
    return typeof url === 'string' ? [mediaItemFromUrl(url)] : [];
  });
}

/** The text of a content part list: `text` parts are the answer, Mistral's `thinking` parts its reasoning. */
function partTexts(parts: readonly unknown[]): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    if (part.type === 'thinking') {
      // Mistral's reasoning models send `{ type: 'thinking', thinking: [{ type: 'text', text }] }`.
      const inner = Array.isArray(part.thinking) ? part.thinking : [part.thinking];
      for (const item of inner) {
        if (typeof item === 'string') reasoning += item;
        else if (isJsonObject(item) && typeof item.text === 'string') reasoning += item.text;
      }
    } else if (typeof part.text === 'string') {
      text += part.text;
    }
  }
  return { text, reasoning };
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/**
 * Split a leading `<think>…</think>` block (reasoning models such as DeepSeek-R1 behind a Chat Completions
 * server) off the answer: reasoning is never content (docs/unified.md, "Reasoning"). Only a block at the very
 * start counts (whitespace before it aside); an unclosed one is all reasoning, as when the output hit its limit.
 */
export function splitThinkBlock(text: string): { content: string; reasoning?: string } {
  const start = text.length - text.trimStart().length;
  if (!text.startsWith(THINK_OPEN, start)) return { content: text };
  const close = text.indexOf(THINK_CLOSE, start + THINK_OPEN.length);
  const inner =
    close === -1 ? text.slice(start + THINK_OPEN.length) : text.slice(start + THINK_OPEN.length, close);
  const rest = close === -1 ? '' : text.slice(close + THINK_CLOSE.length).trimStart();
  return { content: rest, reasoning: inner.trim() };
}

/** The answer and the reasoning of a message: its content (a string or parts) and its reasoning members. */
function messageText(message: Json): { text?: string; reasoning?: string } {
  const { content } = message;
  const reasonings: string[] = [];
  // DeepSeek and xAI name the reasoning `reasoning_content`; OpenRouter and vLLM name it `reasoning`.
  for (const key of ['reasoning_content', 'reasoning'] as const) {
    const value = message[key];
    if (typeof value === 'string' && value !== '') reasonings.push(value);
  }
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (content !== undefined && content !== null) {
    // Some compatible servers send content as an array of `{ type: 'text', text }` parts.
    const parts = partTexts(expectArray(content, '`message.content`'));
    if (parts.reasoning !== '') reasonings.push(parts.reasoning);
    text = parts.text;
  }
  if (text !== undefined) {
    const split = splitThinkBlock(text);
    if (split.reasoning !== undefined && split.reasoning !== '') reasonings.push(split.reasoning);
    text = split.content;
  }
  const reasoning = reasonings.length > 0 ? reasonings.join('\n\n') : undefined;
  return omitUndefined({ text, reasoning });
}

/** Base64 prefixes of audio container signatures (RIFF, ID3, MPEG frame sync, fLaC, OggS). */
const AUDIO_SIGNATURES: readonly [string, string][] = [
  ['UklGR', 'audio/wav'],
  ['SUQz', 'audio/mpeg'],
  ['//', 'audio/mpeg'],
  ['ZkxhQ', 'audio/flac'],
  ['T2dnUw', 'audio/ogg'],
];

/**
 * The media type of chat audio output: the body does not name the format the request asked for, so it is read
 * from the data's signature; headerless data is raw 16-bit PCM (the `pcm16` format).
 */
export function sniffAudioType(base64: string): string {
  return AUDIO_SIGNATURES.find(([prefix]) => base64.startsWith(prefix))?.[1] ?? 'audio/pcm';
}

/**
 * Parse a Chat Completions body (OpenAI, OpenRouter, any OpenAI-compatible server) into an outcome.
 * `extra` adds the facts one provider has beyond the common format.
 */
export function parseChatCompletion(
  body: unknown,
  status: number,
  extra?: (root: Json) => Record<string, unknown>,
): Outcome {
  const root = expectObject(body, 'The body');
  if (root.error !== undefined && root.error !== null && root.choices === undefined)
    return openAiFailure(root, status);
  const first = expectArray(root.choices, '`choices`')[0];
  if (first === undefined) throw new ShapeError('`choices` is empty.');
  const choice = expectObject(first, 'The first choice');
  const message = expectObject(choice.message, '`choices[0].message`');
  const rawFinish = optionalString(choice.finish_reason, '`finish_reason`');
  const finish: FinishReason | undefined =
    rawFinish === undefined ? undefined : (CHAT_FINISH_REASONS[rawFinish] ?? 'other');
  const metadata = omitUndefined({
    model: optionalLabel(root.model, '`model`'),
    response_id: optionalLabel(root.id, '`id`'),
    finish_reason: finish,
    ...extra?.(root),
  });
  const refusal = optionalString(message.refusal, '`message.refusal`');
  if (refusal !== undefined && refusal !== '') {
    return contentFiltered(refusal, { refusal }, metadata);
  }
  if (finish === 'content_filter') {
    const details = { provider_finish_reason: rawFinish };
    return contentFiltered('The provider stopped the output with its content filter.', details, metadata);
  }
  if (finish === 'error') {
    // OpenRouter ends a choice with finish_reason "error" and puts the upstream error on the choice.
    const failure = openAiFailure(
      { error: isJsonObject(choice.error) ? choice.error : { message: 'The upstream provider failed.' } },
      status,
    );
    return { ...failure, metadata: { ...metadata, ...failure.metadata } };
  }
  const calls = toolCalls(message.tool_calls);
  const media = messageImages(message.images);
  const audio = isJsonObject(message.audio) ? message.audio : undefined;
  if (typeof audio?.data === 'string' && audio.data !== '') {
    media.push({
      data: audio.data,
      media_type: sniffAudioType(audio.data),
      name: `audio-${String(audio.id ?? 'output')}`,
    });
  }
  const answer = messageText(message);
  const text = answer.text ?? optionalString(audio?.transcript, '`audio.transcript`');
  if (text === undefined && calls === undefined && media.length === 0) {
    throw new ShapeError('The message has neither content nor tool calls.');
  }
  return {
    kind: 'success',
    content: text ?? '',
    usage: openAiUsage(root.usage),
    media,
    metadata: omitUndefined({ ...metadata, tool_calls: calls, reasoning: answer.reasoning }),
  };
}

/** True for a stream event that is an error object itself: a message with a type, code or status. */
function isBareError(chunk: Json): boolean {
  return chunk.type !== undefined || chunk.code !== undefined || chunk.status_code !== undefined;
}

/**
 * The failure of a Chat Completions stream chunk holding an error (`{ error: … }`, perhaps with a `status_code`
 * beside it), or of a bare error object (some servers send an `event: error` whose data is the error itself:
 * a message with a type, code or status code, no choices); `undefined` for any other chunk.
 */
export function chatStreamError(chunk: unknown): FailureOutcome | undefined {
  if (!isJsonObject(chunk)) return undefined;
  if (chunk.error !== undefined && chunk.error !== null) return openAiFailure(chunk, 200);
  if (chunk.choices === undefined && typeof chunk.message === 'string' && isBareError(chunk))
    return openAiFailure({ error: chunk }, 200);
  return undefined;
}

interface ToolCallDraft {
  id?: string;
  type?: string;
  function: { name: string; arguments: string };
}

/** Fold Chat Completions chunks into the equivalent `chat.completion` body; an error chunk ends the stream. */
export function assembleChatStream(events: readonly unknown[]): StreamAssembly {
  const root: Json = {};
  let content: string | undefined;
  let reasoning: string | undefined;
  let refusal: string | undefined;
  let finish: string | undefined;
  let choiceError: unknown;
  const calls: ToolCallDraft[] = [];
  const images: unknown[] = [];
  for (const event of events) {
    const chunk = expectObject(event, 'A stream chunk');
    const failure = chatStreamError(chunk);
    if (failure !== undefined) return failure;
    for (const key of ['id', 'model', 'provider', 'created'] as const)
      if (chunk[key] !== undefined) root[key] = chunk[key];
    if (chunk.usage !== undefined && chunk.usage !== null) root.usage = chunk.usage;
    const choice = Array.isArray(chunk.choices)
      ? chunk.choices.find((item) => isJsonObject(item) && (item.index ?? 0) === 0)
      : undefined;
    if (!isJsonObject(choice)) continue;
    const delta = isJsonObject(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
    else if (Array.isArray(delta.content)) {
      // Mistral streams content as a list of parts (text, and `thinking` from its reasoning models).
      const parts = partTexts(delta.content);
      content = (content ?? '') + parts.text;
      if (parts.reasoning !== '') reasoning = (reasoning ?? '') + parts.reasoning;
    }
    for (const key of ['reasoning_content', 'reasoning'] as const)
      if (typeof delta[key] === 'string') reasoning = (reasoning ?? '') + delta[key];
    if (typeof delta.refusal === 'string') refusal = (refusal ?? '') + delta.refusal;
    if (Array.isArray(delta.images)) images.push(...delta.images);
    for (const item of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      if (!isJsonObject(item)) continue;
      const index = streamIndex(item.index, calls.length, "A tool call delta's `index`");
      const draft = calls[index] ?? { function: { name: '', arguments: '' } };
      calls[index] = draft;
      if (typeof item.id === 'string') draft.id = item.id;
      const fn = isJsonObject(item.function) ? item.function : {};
      if (typeof fn.name === 'string') draft.function.name += fn.name;
      if (typeof fn.arguments === 'string') draft.function.arguments += fn.arguments;
    }
    if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
    if (choice.error !== undefined) choiceError = choice.error;
  }
  if (finish === undefined) throw new StreamCutError('The stream ended before a choice finished.');
  const message = omitUndefined({
    role: 'assistant',
    content: content ?? null,
    reasoning_content: reasoning,
    refusal,
    tool_calls: calls.length > 0 ? calls.filter(Boolean) : undefined,
    images: images.length > 0 ? images : undefined,
  });
  return {
    kind: 'body',
    body: {
      ...root,
      choices: [omitUndefined({ index: 0, message, finish_reason: finish, error: choiceError })],
    },
  };
}

/** Builds the registry entry of a Chat Completions dialect. */
export function chatFormat(
  provider: string,
  requestIdHeaders: readonly string[],
  extra?: (root: Json) => Record<string, unknown>,
): FormatSpec {
  return {
    provider,
    requestIdHeaders,
    parseSuccess: (body, context) => parseChatCompletion(body, context.status, extra),
    parseError: (body, status, text) => openAiFailure(body, status, text),
    assembleStream: assembleChatStream,
    parseStreamError: chatStreamError,
  };
}

/** `openai-compatible.chat`: any server speaking Chat Completions (vLLM, Ollama, Groq, Together, LM Studio…). */
export const openAiCompatibleChat: FormatSpec = {
  ...chatFormat('openai-compatible', ['x-request-id', 'request-id']),
  // @ai-sdk/openai-compatible names its models after the provider (`groq.chat`), as @ai-sdk/openai does when
  // given a `name`.
  aiSdkProviders: ['*.chat'],
};
