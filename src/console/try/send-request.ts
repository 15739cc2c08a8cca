/**
 * The console's calls to the gateway, made through verdict/client (docs/client.md): each hands back the
 * envelope with what the views show beside it (HTTP status, the time this page measured, the rate limit left),
 * and, while the answer is on its way, the text and tool calls streamed so far or the video job being polled.
 */

import {
  type CallOptions,
  createClient,
  type ResponseInfo,
  type UnifiedOutput,
  type VerdictClient,
} from '../../client/index.js';
import type { RouteName } from '../../gateway/basics/route-table.js';
import { explainUnreachable } from './explain-unreachable.js';

/**
 * The modalities the Try view offers, one per gateway endpoint of the route table that answers an envelope:
 * embeddings are answered in OpenAI's shape only (docs/gateway.md, "Use it from your existing client").
 */
export type Modality = Exclude<RouteName, 'embeddings'>;

/** Where the gateway is and how to authenticate to it. */
export interface GatewayConnection {
  /** Base URL of the gateway; empty for the page's own origin. */
  baseUrl: string;
  /** A gateway key sent as a Bearer token; empty for none. */
  key: string;
}

/** What is left of the calling key's requests this minute, from the answer's `RateLimit-*` headers. */
export interface RateLimit {
  /** Requests a minute the key may make. */
  limit: number;
  /** Requests left this minute. */
  remaining: number;
  /** Seconds until the minute ends. */
  resetSeconds: number;
}

/** One answer as the views show it: the envelope and what the page saw around it. */
export interface GatewayAnswer {
  /** The envelope; verdict/client makes one for a call that got none (provider `system`). */
  envelope: UnifiedOutput;
  /** The HTTP status, or 0 when no answer arrived. */
  status: number;
  /** Milliseconds from sending to the complete answer, measured by the page. */
  elapsedMs: number;
  /** The key's per-minute request limit, when the gateway sent its headers. */
  rateLimit?: RateLimit;
  /** When no answer arrived: why, and what to do about it, for people. */
  problem?: string;
}

/** A tool call as it streams: its name, and its arguments as the text received so far. */
export interface StreamedCall {
  /** The call's id. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments' JSON text so far. */
  arguments: string;
}

/** What a request has shown before its answer is complete. */
export interface Progress {
  /** The streamed text so far. */
  text: string;
  /** The streamed tool calls so far. */
  calls: StreamedCall[];
  /** The id of the video job being polled. */
  jobId?: string;
}

/** A request to one modality. */
export interface TryRequest {
  /** The route or `provider:model`. */
  model: string;
  /** Which endpoint. */
  modality: Modality;
  /** The prompt or text (all but transcription). */
  prompt: string;
  /** The audio to transcribe (transcription only). */
  audio?: File;
  /** Ask for a streamed text answer. */
  stream: boolean;
}

/** Milliseconds between two polls of a video job. */
export const VIDEO_POLL_MS = 2000;

/** A verdict/client for the connection the page was given. */
export function clientOf(connection: GatewayConnection): VerdictClient {
  return createClient({ baseURL: connection.baseUrl, key: connection.key });
}

function rateLimitOf(headers: Headers): { rateLimit?: RateLimit } {
  const [limit, remaining, resetSeconds] = ['limit', 'remaining', 'reset'].map((name) =>
    Number.parseInt(headers.get(`ratelimit-${name}`) ?? '', 10),
  );
  if (limit === undefined || remaining === undefined || resetSeconds === undefined) return {};
  if ([limit, remaining, resetSeconds].some(Number.isNaN)) return {};
  return { rateLimit: { limit, remaining, resetSeconds } };
}

/**
 * Runs `call` with a signal and an `onResponse` that notes the last answer's status and headers, and hands back
 * the envelope with them and the time it took.
 */
export async function callGateway(
  call: (options: CallOptions) => Promise<UnifiedOutput>,
  signal?: AbortSignal,
): Promise<GatewayAnswer> {
  const started = performance.now();
  let response: ResponseInfo | undefined;
  const envelope = await call({
    ...(signal === undefined ? {} : { signal }),
    onResponse: (info) => {
      response = info;
    },
  });
  const elapsedMs = Math.round(performance.now() - started);
  if (response === undefined || isMadeAfter(envelope, response)) {
    // No answer arrived: verdict/client made this failure itself.
    const problem = envelope.success ? undefined : explainUnreachable(envelope, location.origin);
    return { envelope, status: 0, elapsedMs, ...(problem === undefined ? {} : { problem }) };
  }
  return { envelope, status: response.status, elapsedMs, ...rateLimitOf(response.headers) };
}

/**
 * Whether verdict/client made `envelope` for a later call that got no answer (a poll of a video job cancelled or
 * cut off), rather than read it from `response`: the gateway's envelopes carry the trace id of their answer.
 */
function isMadeAfter(envelope: UnifiedOutput, response: ResponseInfo): boolean {
  if (envelope.success || envelope.provider !== 'system') return false;
  if (envelope.error.code !== 'REQUEST_TIMEOUT' && envelope.error.code !== 'PROVIDER_UNAVAILABLE')
    return false;
  return envelope.metadata.trace_id !== response.headers.get('x-trace-id');
}

/** Reads the routes and aliases the gateway offers from `GET /v1/models`. */
export function fetchModels(connection: GatewayConnection, signal?: AbortSignal): Promise<GatewayAnswer> {
  return callGateway((options) => clientOf(connection).models(options), signal);
}

/** A streamed text answer: each delta and tool-call event is shown as it arrives; the last event's envelope is kept. */
async function streamText(
  client: VerdictClient,
  request: TryRequest,
  options: CallOptions,
  onProgress: (progress: Progress) => void,
): Promise<UnifiedOutput> {
  let text = '';
  let calls: StreamedCall[] = [];
  for await (const event of client.streamText({ model: request.model, input: request.prompt }, options)) {
    if (event.type === 'envelope') return event.envelope;
    if (event.type === 'delta') text += event.text;
    else if (event.type === 'tool_call_start')
      calls = [...calls, { id: event.id, name: event.name, arguments: '' }];
    else {
      calls = calls.map((call) =>
        call.id === event.id ? { ...call, arguments: call.arguments + event.arguments } : call,
      );
    }
    onProgress({ text, calls });
  }
  // verdict/client always ends a stream with its envelope event.
  throw new Error('The stream ended without its envelope event.');
}

/** A video: the job is started without waiting, then polled here, so the page can say which job it waits for. */
async function video(
  client: VerdictClient,
  request: TryRequest,
  options: CallOptions,
  onProgress: (progress: Progress) => void,
): Promise<UnifiedOutput> {
  const started = await client.videos({ model: request.model, prompt: request.prompt, wait: false }, options);
  const jobId = started.success ? started.metadata.job_id : undefined;
  if (!started.success || started.metadata.job_status !== 'pending' || typeof jobId !== 'string')
    return started;
  onProgress({ text: '', calls: [], jobId });
  return client.waitForVideo(jobId, { ...options, intervalMs: VIDEO_POLL_MS });
}

/** A modality the switch below does not know: the compiler asks for its case when the route table grows. */
function unknownModality(modality: never): never {
  throw new Error(`The console cannot send a request to the modality ${String(modality)}.`);
}

/**
 * Sends one request. While the answer is on its way `onProgress` gets the streamed text and tool calls, or the
 * video job being polled; the answer is the final envelope.
 */
export function sendRequest(
  connection: GatewayConnection,
  request: TryRequest,
  onProgress: (progress: Progress) => void,
  signal: AbortSignal,
): Promise<GatewayAnswer> {
  const client = clientOf(connection);
  return callGateway((options) => {
    switch (request.modality) {
      case 'text':
        return request.stream
          ? streamText(client, request, options, onProgress)
          : client.text({ model: request.model, input: request.prompt }, options);
      case 'images':
        return client.images({ model: request.model, prompt: request.prompt }, options);
      case 'speech':
        return client.speech({ model: request.model, input: request.prompt }, options);
      case 'transcriptions':
        // A transcription re-run from History keeps no audio: sent without any, the gateway says what is missing.
        return request.audio === undefined
          ? client.transcribe(
              { model: request.model, audio: '', media_type: 'application/octet-stream' },
              options,
            )
          : client.transcribe(
              { model: request.model, audio: request.audio, filename: request.audio.name },
              options,
            );
      case 'videos':
        return video(client, request, options, onProgress);
      default:
        return unknownModality(request.modality);
    }
  }, signal);
}
