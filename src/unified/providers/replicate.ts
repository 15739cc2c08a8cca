import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import { mediaItemFromUrl } from '../classify-media.js';
import type { MediaItem } from '../types.js';
import type { FormatSpec } from './format-spec.js';
import {
  bodySnippet,
  contentFiltered,
  expectObject,
  type FailureOutcome,
  failureForStatus,
  type Outcome,
  optionalString,
  type ReportedUsage,
  ShapeError,
  tokenCount,
} from './provider-outcome.js';

/** Failure messages of models whose safety checker rejected the output or the input. */
const SAFETY_WORDING = /\bnsfw\b|safety (checker|filter)|flagged as sensitive|content (policy|moderation)/i;

/** The failure a Replicate error body (problem details: `{ title, detail, status }`) stands for. */
function replicateFailure(body: unknown, status: number, text = ''): FailureOutcome {
  const problem = isJsonObject(body) ? body : {};
  const message =
    typeof problem.detail === 'string'
      ? problem.detail
      : typeof problem.title === 'string'
        ? problem.title
        : bodySnippet(text);
  return failureForStatus(
    status,
    message,
    omitUndefined({ provider_title: problem.title, provider_error: isJsonObject(body) ? body : undefined }),
  );
}

function isUrl(value: string): boolean {
  return /^(https?:\/\/|data:)/i.test(value);
}

/** Split a prediction's output into text (language models stream tokens as an array of strings) and media. */
function splitOutput(output: unknown): { text: string | undefined; media: MediaItem[] } {
  const values = Array.isArray(output) ? output : isJsonObject(output) ? Object.values(output) : [output];
  const media: MediaItem[] = [];
  const texts: string[] = [];
  for (const value of values) {
    // Classifiers and scorers return numbers or booleans: their text form is the output.
    if (typeof value === 'number' || typeof value === 'boolean') texts.push(String(value));
    if (typeof value !== 'string') continue;
    if (isUrl(value)) media.push(mediaItemFromUrl(value));
    else texts.push(value);
  }
  return { text: texts.length > 0 && !isJsonObject(output) ? texts.join('') : undefined, media };
}

function replicateUsage(metrics: Record<string, unknown>): ReportedUsage | undefined {
  const input = tokenCount(metrics.input_token_count, '`metrics.input_token_count`');
  const output = tokenCount(metrics.output_token_count, '`metrics.output_token_count`');
  if (input === undefined && output === undefined) return undefined;
  return { input: input ?? 0, output: output ?? 0, details: omitUndefined({}) };
}

/** Parse a Replicate prediction object; `failed`, `canceled` and `aborted` are failures even with HTTP 2xx. */
function parsePrediction(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (root.status === undefined && (root.detail !== undefined || root.title !== undefined)) {
    return replicateFailure(root, status < 400 ? 502 : status);
  }
  const state = optionalString(root.status, '`status`');
  const metrics = isJsonObject(root.metrics) ? root.metrics : {};
  const predictTime = typeof metrics.predict_time === 'number' ? metrics.predict_time : undefined;
  const metadata = omitUndefined({
    model: optionalString(root.model, '`model`') ?? optionalString(root.version, '`version`'),
    prediction_id: optionalString(root.id, '`id`'),
    provider_status: state,
    duration_ms: predictTime === undefined ? undefined : Math.round(predictTime * 1000),
  });
  if (state === 'starting' || state === 'processing') {
    // A `Prefer: wait` answer can still be processing yet already hold output (a language model's tokens so far,
    // the first images): it is kept, and the job stays pending.
    const partial = root.output === undefined || root.output === null ? undefined : splitOutput(root.output);
    const held = partial !== undefined && (partial.text !== undefined || partial.media.length > 0);
    return {
      kind: 'success',
      content: held ? (partial.text ?? '') : `Prediction ${state}.`,
      media: partial?.media ?? [],
      metadata: omitUndefined({
        ...metadata,
        job_status: 'pending',
        output: partial !== undefined && isJsonObject(root.output) ? root.output : undefined,
      }),
    };
  }
  if (state === 'failed' || state === 'canceled' || state === 'aborted') {
    const reason =
      typeof root.error === 'string'
        ? root.error
        : isJsonObject(root.error)
          ? JSON.stringify(root.error)
          : undefined;
    const message = reason ?? `The prediction ${state}.`;
    const details = omitUndefined({ prediction_status: state, provider_error: root.error ?? undefined });
    if (state === 'failed' && SAFETY_WORDING.test(message)) {
      return contentFiltered(message, details, metadata);
    }
    // aborted: the prediction's deadline passed before it started; canceled and failed are job failures.
    const code = state === 'aborted' ? 'PROVIDER_TIMEOUT' : 'PROVIDER_ERROR';
    return {
      kind: 'failure',
      code,
      message,
      details,
      metadata: { ...metadata, job_status: state, finish_reason: 'error' },
    };
  }
  if (state !== 'succeeded') throw new ShapeError(`Unknown prediction status ${JSON.stringify(state)}.`);
  if (root.output === undefined || root.output === null)
    throw new ShapeError('The prediction succeeded without output.');
  const { text, media } = splitOutput(root.output);
  if (text === undefined && media.length === 0 && !isJsonObject(root.output)) {
    throw new ShapeError('The prediction output holds neither text nor media.');
  }
  return {
    kind: 'success',
    // Media-only output is described by the envelope assembly, the same way for every format.
    content: text ?? (media.length > 0 ? '' : 'Prediction succeeded.'),
    usage: replicateUsage(metrics),
    media,
    metadata: omitUndefined({
      ...metadata,
      job_status: 'completed',
      finish_reason: 'stop',
      output: isJsonObject(root.output) ? root.output : undefined,
    }),
  };
}

/** `replicate.prediction`: a Replicate prediction object (create with `Prefer: wait`, or a poll). */
export const replicatePrediction: FormatSpec = {
  provider: 'replicate',
  aiSdkProviders: ['replicate', 'replicate.image', 'replicate.video'],
  requestIdHeaders: ['x-request-id'],
  parseSuccess: (body, context) => parsePrediction(body, context.status),
  parseError: (body, status, text) => replicateFailure(body, status, text),
};
