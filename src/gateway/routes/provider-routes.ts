import {
  generateImage,
  generateSpeech,
  experimental_getVideoStatus as getVideoStatus,
  InvalidArgumentError,
  type JSONValue,
  experimental_startVideo as startVideo,
  transcribe,
} from 'ai';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { isJsonObject } from '../../contract/findings.js';
import { readJson } from '../../json/index.js';
import {
  type AiSdkOptions,
  type AiSdkVideoStatus,
  fromGenerateImage,
  fromGenerateSpeech,
  fromTranscription,
  fromVideoStatus,
} from '../../unified/ai-sdk.js';
import { toBase64 } from '../../unified/classify-media.js';
import type { UnifiedOutput } from '../../unified/types.js';
import { withMetadata } from '../build-envelope.js';
import type { Target } from '../call-with-fallbacks.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../gateway-env.js';
import { isJsonValue } from '../json-value.js';
import type { ModelOf } from '../providers.js';
import { invalidRequest, parseJsonRequest, type RequestRead, readBodyBytes } from '../read-request.js';
import { REQUEST_SCHEMAS } from '../request-schemas.js';
import { ROUTE_TABLE, type RouteName } from '../route-table.js';
import { serveCall } from './serve-call.js';
import { serveText, serveTextStream } from './text.js';

/** A `WIDTHxHEIGHT` size, as the request schemas check it and the AI SDK types it. */
function isSize(value: string): value is `${number}x${number}` {
  return /^[0-9]+x[0-9]+$/.test(value);
}

/** A `W:H` aspect ratio, as the request schemas check it and the AI SDK types it. */
function isRatio(value: string): value is `${number}:${number}` {
  return /^[0-9]+:[0-9]+$/.test(value);
}

/** Wait between two status checks of a video job; ends early when the request is aborted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** A video job's status and the id to poll it by. */
interface VideoAnswer {
  status: AiSdkVideoStatus;
  job: string;
}

/**
 * A job id that carries what polling needs — the target and the provider's opaque operation — so any instance
 * of the gateway can answer it without shared state. The provider SDK still checks that a status URL inside the
 * operation belongs to the configured provider, so a forged id cannot send credentials elsewhere.
 */
function encodeVideoJob(target: string, operation: JSONValue): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ target, operation }));
  return toBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function decodeVideoJob(id: string): { target: string; operation: JSONValue } | undefined {
  if (!/^[A-Za-z0-9_-]{1,8192}$/.test(id)) return undefined;
  try {
    const binary = atob(id.replaceAll('-', '+').replaceAll('_', '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
    const read = readJson(text, { maxDepth: 32 });
    const value = read.ok && isJsonObject(read.value) ? read.value : undefined;
    const operation = value?.operation;
    if (typeof value?.target !== 'string' || operation === undefined || !isJsonValue(operation))
      return undefined;
    return { target: value.target, operation };
  } catch {
    return undefined;
  }
}

/**
 * Whether `operation` has the shape the provider's SDK gave when the job started: a Gemini operation name, a
 * Replicate status URL. A job id is the client's to send, so one made up is refused before any provider is
 * called (the SDKs would build a URL from whatever it holds).
 */
function isVideoOperation(type: string | undefined, operation: unknown): boolean {
  if (operation === null || typeof operation !== 'object') return false;
  const fields = operation as { operationName?: unknown; getUrl?: unknown; demo_job?: unknown };
  // The demo's operation names its model only; it is answered from recorded data, with no request.
  if (type === 'demo') return typeof fields.demo_job === 'string';
  if (type === 'google' || type === 'google-vertex') {
    return (
      typeof fields.operationName === 'string' &&
      /^(?:models\/[A-Za-z0-9._-]+\/)?operations\/[A-Za-z0-9._-]+$/.test(fields.operationName) &&
      !fields.operationName.split('/').includes('..')
    );
  }
  if (type === 'replicate') {
    if (typeof fields.getUrl !== 'string') return false;
    try {
      return /^https?:$/.test(new URL(fields.getUrl).protocol);
    } catch {
      return false;
    }
  }
  return type === undefined;
}

/** The envelope of a video answer; a job still running carries its `job_id` and where to poll it. */
function videoEnvelope(answer: VideoAnswer, options: AiSdkOptions): UnifiedOutput {
  const envelope = fromVideoStatus(answer.status, options);
  return envelope.success && envelope.metadata.job_status === 'pending'
    ? withMetadata(envelope, { job_id: answer.job, poll: `${ROUTE_TABLE.videos.path}/${answer.job}` })
    : envelope;
}

/**
 * `@ai-sdk/google` adds the provider's API key (`key=`) to a Gemini video URL on the API's own origin, so that the
 * URL downloads as it is. The gateway never answers a provider key: it answers such a URL without it.
 */
function withoutProviderKey(target: Target<ModelOf<'videos'>>, answer: VideoAnswer): VideoAnswer {
  if (target.provider.type !== 'google' || answer.status.videos === undefined) return answer;
  const videos = answer.status.videos.map((video) => {
    if (video.type !== 'url') return video;
    const url = new URL(video.url);
    url.searchParams.delete('key');
    return { ...video, url: url.href };
  });
  return { ...answer, status: { ...answer.status, videos } };
}

/**
 * Google image models are Gemini models through `@ai-sdk/google` (it refuses other ids with a plain error, which
 * would read as a gateway bug): an Imagen id is the request's mistake, a `VALIDATION_ERROR`.
 */
function checkImageModel(target: Target<ModelOf<'images'>>): void {
  if (target.provider.type === 'google' && !target.modelId.startsWith('gemini-')) {
    throw new InvalidArgumentError({
      parameter: 'model',
      value: target.modelId,
      message: `Google image models are Gemini models (gemini-…) through the gateway, not "${target.modelId}".`,
    });
  }
}

type Handler<T> = (c: Context<GatewayEnv>, body: T) => Promise<Response>;

/** Reads a route's body within its size bound and time: the value its handler takes, or the problem. */
type BodyReader<T> = (c: Context<GatewayEnv>, limit: number, timeoutMs: number) => Promise<RequestRead<T>>;

/** The reader of a JSON body checked by `schema`: its handler gets the schema's type. */
function jsonBody<S extends z.ZodType>(schema: S): BodyReader<z.infer<S>> {
  return async (c, limit, timeoutMs) => {
    const bytes = await readBodyBytes(c.req.raw, limit, timeoutMs);
    return bytes.ok ? parseJsonRequest(bytes.value, schema) : bytes;
  };
}

/**
 * Register a provider route at its path in the route table: other methods get a `VALIDATION_ERROR` envelope
 * naming its method; the body is read strictly by `read`, and its value reaches `handle` with its type.
 */
function post<T>(
  app: Hono<GatewayEnv>,
  runtime: GatewayRuntime,
  route: RouteName,
  read: BodyReader<T>,
  handle: Handler<T>,
): void {
  const { path, method } = ROUTE_TABLE[route];
  app.all(path, async (c) => {
    const traceId = c.get('traceId');
    if (c.req.method !== method) {
      return respond(
        c,
        systemFailure('VALIDATION_ERROR', `Use ${method} for ${path}, not ${c.req.method}.`, traceId, {
          method: c.req.method,
          allowed: [method],
        }),
        { allow: method },
      );
    }
    const body = await read(c, runtime.maxBodyBytes(route), runtime.bodyTimeoutMs);
    if (!body.ok) {
      const { code, message, details } = body.problem;
      if (code !== 'REQUEST_TIMEOUT') return respond(c, systemFailure(code, message, traceId, details));
      if (details.reason === 'client_closed') c.get('facts').clientClosed = true;
      // The rest of a body that came too slowly is not read: the connection ends with the answer.
      return respond(c, systemFailure(code, message, traceId, details), { connection: 'close' });
    }
    if (runtime.logContent) c.get('facts').input = body.value;
    return handle(c, body.value);
  });
}

/** A transcription request as its handler takes it, from multipart or from JSON. */
interface TranscriptionBody {
  /** The requested model. */
  model: string;
  /** The audio bytes. */
  audio: Uint8Array;
  /** The audio's media type, when the client gave one. */
  media_type?: string;
}

/** `POST /v1/transcriptions` takes multipart (`file`, `model`) as well as JSON with base64 `audio`. */
async function readTranscription(
  c: Context<GatewayEnv>,
  limit: number,
  timeoutMs: number,
): Promise<RequestRead<TranscriptionBody>> {
  const bytes = await readBodyBytes(c.req.raw, limit, timeoutMs);
  if (!bytes.ok) return bytes;
  const type = c.req.header('content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    let form: FormData;
    try {
      form = await new Response(bytes.value as Uint8Array<ArrayBuffer>, {
        headers: { 'content-type': type },
      }).formData();
    } catch {
      return {
        ok: false,
        problem: invalidRequest([{ path: '', message: 'The multipart body cannot be read.' }]),
      };
    }
    const file = form.get('file');
    const model = form.get('model');
    const problems = [];
    if (typeof model !== 'string' || model === '')
      problems.push({ path: '/model', message: 'A model field is required.' });
    if (file === null || typeof file === 'string')
      problems.push({ path: '/file', message: 'A file part is required.' });
    if (problems.length > 0 || typeof model !== 'string' || file === null || typeof file === 'string') {
      return { ok: false, problem: invalidRequest(problems) };
    }
    const audio = new Uint8Array(await file.arrayBuffer());
    return { ok: true, value: { model, audio, ...(file.type === '' ? {} : { media_type: file.type }) } };
  }
  const parsed = parseJsonRequest(bytes.value, REQUEST_SCHEMAS.transcriptions);
  if (!parsed.ok) return parsed;
  const audio = Uint8Array.from(atob(parsed.value.audio), (char) => char.charCodeAt(0));
  return { ok: true, value: { model: parsed.value.model, audio, media_type: parsed.value.media_type } };
}

/** Register the routes that call providers: text, images, speech, transcriptions and videos. */
export function registerProviderRoutes(app: Hono<GatewayEnv>, runtime: GatewayRuntime): void {
  post(app, runtime, 'text', jsonBody(REQUEST_SCHEMAS.text), (c, body) =>
    body.stream === true ? serveTextStream(c, runtime, body) : serveText(c, runtime, body),
  );
  post(app, runtime, 'images', jsonBody(REQUEST_SCHEMAS.images), (c, body) =>
    serveCall(c, runtime, {
      route: 'images',
      model: body.model,
      call: ({ target, signal, headers }) => {
        checkImageModel(target);
        return generateImage({
          model: target.model,
          prompt: body.prompt,
          ...(body.n === undefined ? {} : { n: body.n }),
          ...(body.size !== undefined && isSize(body.size) ? { size: body.size } : {}),
          ...(body.aspect_ratio !== undefined && isRatio(body.aspect_ratio)
            ? { aspectRatio: body.aspect_ratio }
            : {}),
          ...(body.seed === undefined ? {} : { seed: body.seed }),
          maxRetries: 0,
          abortSignal: signal,
          headers,
        });
      },
      convert: fromGenerateImage,
    }),
  );
  post(app, runtime, 'speech', jsonBody(REQUEST_SCHEMAS.speech), (c, body) =>
    serveCall(c, runtime, {
      route: 'speech',
      model: body.model,
      call: ({ target, signal, headers }) =>
        generateSpeech({
          model: target.model,
          text: body.input,
          ...(body.voice === undefined ? {} : { voice: body.voice }),
          ...(body.format === undefined ? {} : { outputFormat: body.format }),
          ...(body.instructions === undefined ? {} : { instructions: body.instructions }),
          ...(body.speed === undefined ? {} : { speed: body.speed }),
          maxRetries: 0,
          abortSignal: signal,
          headers,
        }),
      convert: fromGenerateSpeech,
    }),
  );
  post(app, runtime, 'transcriptions', readTranscription, (c, { model, audio, media_type }) =>
    serveCall(c, runtime, {
      route: 'transcriptions',
      model,
      call: ({ target, signal, headers }) =>
        transcribe({
          model: target.model,
          // The AI SDK guesses the audio's type from its bytes; the type the client gave goes through its
          // `download` hook instead (nothing is downloaded: the bytes are already here).
          ...(media_type === undefined
            ? { audio }
            : {
                audio: new URL('verdict:request-audio'),
                download: async () => ({ data: audio, mediaType: media_type }),
              }),
          maxRetries: 0,
          abortSignal: signal,
          headers,
        }),
      convert: fromTranscription,
    }),
  );
  post(app, runtime, 'videos', jsonBody(REQUEST_SCHEMAS.videos), (c, body) =>
    serveCall(c, runtime, {
      route: 'videos',
      model: body.model,
      // A video is a job: start it, then poll its status until it ends or the route's deadline passes — or,
      // with "wait": false, answer at once with a job id to poll at GET /v1/videos/{job_id}.
      // Finished videos are answered by URL when the provider gives one; the gateway does not download them.
      call: async ({ target, signal, headers }): Promise<VideoAnswer> => {
        const started = await startVideo({
          model: target.model,
          prompt: body.prompt,
          ...(body.duration_s === undefined ? {} : { duration: body.duration_s }),
          ...(body.aspect_ratio !== undefined && isRatio(body.aspect_ratio)
            ? { aspectRatio: body.aspect_ratio }
            : {}),
          ...(body.resolution !== undefined && isSize(body.resolution)
            ? { resolution: body.resolution }
            : {}),
          ...(body.seed === undefined ? {} : { seed: body.seed }),
          maxRetries: 0,
          abortSignal: signal,
          headers,
        });
        const job = encodeVideoJob(target.label, started.operation);
        if (body.wait === false) return { status: { status: 'pending', response: started.response }, job };
        for (;;) {
          // A provider's status call may not honour the abort signal: stop polling once the request is over
          // (deadline, client gone), or the loop would go on after the answer was sent.
          signal.throwIfAborted();
          const status = await getVideoStatus(target.model, {
            operation: started.operation,
            headers,
            abortSignal: signal,
            maxRetries: 0,
          });
          if (status.status !== 'pending') return withoutProviderKey(target, { status, job });
          await pause(runtime.videoPollMs, signal);
        }
      },
      convert: videoEnvelope,
    }),
  );
  const jobRoute = ROUTE_TABLE.video_job;
  app.get(jobRoute.label, (c) => {
    const jobId = c.req.param('job') ?? '';
    const decoded = decodeVideoJob(jobId);
    const provider =
      decoded === undefined ? undefined : runtime.providers.get(decoded.target.split(':')[0] ?? '');
    const job =
      decoded !== undefined && isVideoOperation(provider?.type, decoded.operation) ? decoded : undefined;
    if (job === undefined) {
      return respond(
        c,
        systemFailure(
          'NOT_FOUND',
          'Unknown video job: use the job_id a POST /v1/videos answered.',
          c.get('traceId'),
        ),
      );
    }
    return serveCall(c, runtime, {
      route: 'videos',
      model: job.target,
      call: async ({ target, signal, headers }) => {
        const status = await getVideoStatus(target.model, {
          operation: job.operation,
          headers,
          abortSignal: signal,
          maxRetries: 0,
        });
        return withoutProviderKey(target, { status, job: jobId });
      },
      convert: videoEnvelope,
    });
  });
}
