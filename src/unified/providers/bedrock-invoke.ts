import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import { fromBase64 } from '../base64.js';
import { type HeadersLike, headerValue } from '../header-value.js';
import { readBody } from '../read-body.js';
import type { FinishReason } from '../types.js';
import { decodeEventStream, looksLikeEventStream } from './aws-event-stream.js';
import { assembleConverseStream, bedrockFailure, parseConverse } from './bedrock.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import {
  contentFiltered,
  expectArray,
  expectObject,
  type Json,
  type Outcome,
  optionalString,
  type ReportedUsage,
  ShapeError,
  StreamCutError,
  tokenCount,
} from './provider-outcome.js';

/** The member in which Bedrock appends its own counts to the last chunk of an InvokeModelWithResponseStream. */
const INVOCATION_METRICS = 'amazon-bedrock-invocationMetrics';

/** The model families whose InvokeModel bodies verdict reads, told apart by the shape of the body. */
type Family = 'titan' | 'llama' | 'mistral' | 'mistral-chat' | 'nova';

/** Stop reasons of the Titan, Llama and Mistral bodies, and what they normalize to; unknown values are `other`. */
const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  FINISH: 'stop',
  STOP_CRITERIA_MET: 'stop',
  LENGTH: 'length',
  stop: 'stop',
  length: 'length',
  model_length: 'length',
  tool_calls: 'tool_calls',
};

/** Stop reasons that mean the output was filtered (Titan's content filter). */
const FILTERED_STOP_REASONS = new Set(['CONTENT_FILTERED', 'content_filtered']);

/** The family of a whole InvokeModel body. */
function familyOfBody(root: Json): Family | undefined {
  if (Array.isArray(root.results)) return 'titan';
  if (typeof root.generation === 'string') return 'llama';
  if (Array.isArray(root.outputs)) return 'mistral';
  if (Array.isArray(root.choices)) return 'mistral-chat';
  if (isJsonObject(root.output)) return 'nova';
  return undefined;
}

/**
 * Usage that the body does not report itself: the invocation metrics Bedrock appends to a stream's last chunk, or
 * the `x-amzn-bedrock-input-token-count` / `-output-token-count` headers of an InvokeModel answer.
 */
function reportedElsewhere(root: Json, headers: HeadersLike | undefined): ReportedUsage | undefined {
  const metrics = isJsonObject(root[INVOCATION_METRICS]) ? root[INVOCATION_METRICS] : {};
  const header = (name: string) => {
    const value = headerValue(headers, name)?.trim();
    return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  };
  const input =
    tokenCount(metrics.inputTokenCount, '`inputTokenCount`') ?? header('x-amzn-bedrock-input-token-count');
  const output =
    tokenCount(metrics.outputTokenCount, '`outputTokenCount`') ?? header('x-amzn-bedrock-output-token-count');
  if (input === undefined && output === undefined) return undefined;
  return { input: input ?? 0, output: output ?? 0, details: omitUndefined({}) };
}

/** Facts of the invocation for metadata: Bedrock's own latency counts. */
function invocationFacts(root: Json, headers: HeadersLike | undefined): Record<string, unknown> {
  const metrics = isJsonObject(root[INVOCATION_METRICS]) ? root[INVOCATION_METRICS] : {};
  const latency = metrics.invocationLatency ?? headerValue(headers, 'x-amzn-bedrock-invocation-latency');
  const ms = Number(latency);
  return omitUndefined({
    provider_latency_ms: latency !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : undefined,
    first_byte_latency_ms:
      typeof metrics.firstByteLatency === 'number' ? metrics.firstByteLatency : undefined,
  });
}

/** The text, raw stop reason and usage of a Titan, Llama or Mistral body. */
function readCompletion(
  family: Exclude<Family, 'nova'>,
  root: Json,
): { text: string; stop: string | undefined; usage?: ReportedUsage } {
  switch (family) {
    case 'titan': {
      const result = expectObject(expectArray(root.results, '`results`')[0], '`results[0]`');
      const input = tokenCount(root.inputTextTokenCount, '`inputTextTokenCount`');
      const output = tokenCount(result.tokenCount, '`results[0].tokenCount`');
      return {
        text: optionalString(result.outputText, '`results[0].outputText`') ?? '',
        stop: optionalString(result.completionReason, '`completionReason`'),
        ...(input === undefined && output === undefined
          ? {}
          : { usage: { input: input ?? 0, output: output ?? 0, details: {} } }),
      };
    }
    case 'llama': {
      const input = tokenCount(root.prompt_token_count, '`prompt_token_count`');
      const output = tokenCount(root.generation_token_count, '`generation_token_count`');
      return {
        text: optionalString(root.generation, '`generation`') ?? '',
        stop: optionalString(root.stop_reason, '`stop_reason`'),
        ...(input === undefined && output === undefined
          ? {}
          : { usage: { input: input ?? 0, output: output ?? 0, details: {} } }),
      };
    }
    case 'mistral': {
      const first = expectObject(expectArray(root.outputs, '`outputs`')[0], '`outputs[0]`');
      return {
        text: optionalString(first.text, '`outputs[0].text`') ?? '',
        stop: optionalString(first.stop_reason, '`outputs[0].stop_reason`'),
      };
    }
    case 'mistral-chat': {
      const first = expectObject(expectArray(root.choices, '`choices`')[0], '`choices[0]`');
      const message = expectObject(first.message, '`choices[0].message`');
      return {
        text: optionalString(message.content, '`choices[0].message.content`') ?? '',
        stop: optionalString(first.stop_reason ?? first.finish_reason, '`choices[0].stop_reason`'),
      };
    }
  }
}

/** Parse an InvokeModel body of Titan Text, Llama, Mistral or Nova. */
function parseInvoke(body: unknown, status: number, headers: HeadersLike | undefined): Outcome {
  const root = expectObject(body, 'The body');
  if (root.message !== undefined || root.Message !== undefined) {
    if (familyOfBody(root) === undefined)
      return bedrockFailure(root, status < 400 ? 502 : status, '', headers);
  }
  const family = familyOfBody(root);
  if (family === undefined) {
    throw new ShapeError(
      'The body is not an InvokeModel answer of Titan (`results`), Llama (`generation`), Mistral (`outputs`, `choices`) or Nova (`output`).',
    );
  }
  if (family === 'nova') {
    // Nova's InvokeModel body is the Converse shape, with its cache counts named `…TokenCount`.
    const usage = isJsonObject(root.usage) ? root.usage : undefined;
    const converse =
      usage === undefined
        ? root
        : {
            ...root,
            usage: omitUndefined({
              ...usage,
              cacheReadInputTokens: usage.cacheReadInputTokens ?? usage.cacheReadInputTokenCount,
              cacheWriteInputTokens: usage.cacheWriteInputTokens ?? usage.cacheWriteInputTokenCount,
            }),
          };
    const outcome = parseConverse(converse, status, headers);
    return outcome.kind === 'success'
      ? { ...outcome, metadata: { ...outcome.metadata, model_family: family } }
      : outcome;
  }
  const read = readCompletion(family, root);
  if (read.stop === undefined) throw new ShapeError('The body has no stop reason.');
  const finish = STOP_REASONS[read.stop] ?? 'other';
  const metadata = omitUndefined({
    model_family: family,
    stop_reason: read.stop,
    ...invocationFacts(root, headers),
  });
  if (FILTERED_STOP_REASONS.has(read.stop)) {
    return contentFiltered(
      'The model stopped the output with its content filter.',
      { provider_finish_reason: read.stop },
      metadata,
    );
  }
  return {
    kind: 'success',
    content: read.text,
    usage: read.usage ?? reportedElsewhere(root, headers),
    metadata: { ...metadata, finish_reason: finish },
  };
}

/** The model chunk of one InvokeModelWithResponseStream event: `{ chunk: { bytes } }` decoded, or a bare chunk. */
function modelChunk(item: Json): Json {
  if (!isJsonObject(item.chunk)) return item;
  const raw = item.chunk.bytes;
  const bytes = raw instanceof Uint8Array ? raw : typeof raw === 'string' ? fromBase64(raw) : undefined;
  if (bytes === undefined) throw new ShapeError('A stream chunk has no base64 `bytes`.');
  const read = readBody(bytes);
  if (!read.ok) throw new ShapeError(`A stream chunk's bytes are not JSON: ${read.message}`);
  return expectObject(read.value, 'A stream chunk');
}

/** The family of a stream chunk. */
function familyOfChunk(chunk: Json): Family | undefined {
  if (
    ['messageStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata'].some(
      (key) => key in chunk,
    )
  )
    return 'nova';
  if (typeof chunk.outputText === 'string' || chunk.completionReason !== undefined) return 'titan';
  if (typeof chunk.generation === 'string') return 'llama';
  if (Array.isArray(chunk.outputs)) return 'mistral';
  if (Array.isArray(chunk.choices)) return 'mistral-chat';
  return undefined;
}

/** The first choice or output of a Mistral chunk. */
function firstOf(value: unknown): Json {
  return Array.isArray(value) && isJsonObject(value[0]) ? value[0] : {};
}

/**
 * Fold InvokeModelWithResponseStream events into the equivalent InvokeModel body of the model's family: the raw
 * `application/vnd.amazon.eventstream` body, its decoded events (`{ chunk: { bytes } }`, bytes base64), or the
 * model chunks themselves. An exception event ends the stream as a failure; a stream without its stop reason is
 * cut.
 */
function assembleInvokeStream(events: readonly unknown[]): StreamAssembly {
  const chunks: Json[] = [];
  for (const event of events) {
    const item = expectObject(event, 'A stream event');
    const exception = Object.keys(item).find((key) => /exception$/i.test(key) && isJsonObject(item[key]));
    if (exception !== undefined) return bedrockFailure(item[exception], 200, '', undefined, exception);
    chunks.push(modelChunk(item));
  }
  const family = chunks.map(familyOfChunk).find((found) => found !== undefined);
  if (family === undefined) throw new ShapeError('The stream holds no model chunk.');
  const metrics = chunks
    .map((chunk) => chunk[INVOCATION_METRICS])
    .filter(isJsonObject)
    .at(-1);
  if (family === 'nova') return assembleConverseStream(chunks);
  let text = '';
  let stop: unknown;
  const counts: Json = {};
  for (const chunk of chunks) {
    switch (family) {
      case 'titan':
        if (typeof chunk.outputText === 'string') text += chunk.outputText;
        stop = chunk.completionReason ?? stop;
        counts.inputTextTokenCount ??= chunk.inputTextTokenCount ?? undefined;
        counts.tokenCount = chunk.totalOutputTextTokenCount ?? counts.tokenCount;
        break;
      case 'llama':
        if (typeof chunk.generation === 'string') text += chunk.generation;
        stop = chunk.stop_reason ?? stop;
        counts.prompt_token_count ??= chunk.prompt_token_count ?? undefined;
        counts.generation_token_count = chunk.generation_token_count ?? counts.generation_token_count;
        break;
      case 'mistral': {
        const output = firstOf(chunk.outputs);
        if (typeof output.text === 'string') text += output.text;
        stop = output.stop_reason ?? stop;
        break;
      }
      case 'mistral-chat': {
        const choice = firstOf(chunk.choices);
        const delta = isJsonObject(choice.delta)
          ? choice.delta
          : isJsonObject(choice.message)
            ? choice.message
            : {};
        if (typeof delta.content === 'string') text += delta.content;
        stop = choice.stop_reason ?? choice.finish_reason ?? stop;
        break;
      }
    }
  }
  if (typeof stop !== 'string')
    throw new StreamCutError('The stream ended before the model sent its stop reason.');
  const extra = metrics === undefined ? {} : { [INVOCATION_METRICS]: metrics };
  const bodies: Record<Exclude<Family, 'nova'>, Json> = {
    titan: omitUndefined({
      inputTextTokenCount: counts.inputTextTokenCount,
      results: [omitUndefined({ tokenCount: counts.tokenCount, outputText: text, completionReason: stop })],
    }),
    llama: omitUndefined({
      generation: text,
      prompt_token_count: counts.prompt_token_count,
      generation_token_count: counts.generation_token_count,
      stop_reason: stop,
    }),
    mistral: { outputs: [{ text, stop_reason: stop }] },
    'mistral-chat': {
      choices: [{ index: 0, message: { role: 'assistant', content: text }, stop_reason: stop }],
    },
  };
  return { kind: 'body', body: { ...bodies[family], ...extra } };
}

/**
 * `bedrock.invoke`: Amazon Bedrock's InvokeModel bodies of Titan Text, Llama, Mistral and Nova, and
 * InvokeModelWithResponseStream (raw event-stream bytes or decoded events). Anthropic models on InvokeModel
 * answer with a Messages body: `anthropic.messages` reads it.
 */
export const bedrockInvoke: FormatSpec = {
  provider: 'bedrock',
  requestIdHeaders: ['x-amzn-requestid', 'x-amz-request-id'],
  parseSuccess: (body, context) => parseInvoke(body, context.status, context.headers),
  parseError: (body, status, text, headers) => bedrockFailure(body, status, text, headers),
  assembleStream: assembleInvokeStream,
  decodeBinaryStream: decodeEventStream,
  isBinaryStream: looksLikeEventStream,
};
