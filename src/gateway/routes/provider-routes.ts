import {
  generateImage,
  generateSpeech,
  experimental_getVideoStatus as getVideoStatus,
  InvalidArgumentError,
  experimental_startVideo as startVideo,
  transcribe,
} from 'ai';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { readJson } from '../../json/index.js';
import { sleep } from '../../sleep.js';
import {
  type AiSdkOptions,
  type AiSdkVideoStatus,
  fromGenerateImage,
  fromGenerateSpeech,
  fromTranscription,
  fromVideoStatus,
} from '../../unified/ai-sdk.js';
import { fromBase64, fromBase64Url, toBase64Url } from '../../unified/base64.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { Target } from '../call-with-fallbacks.js';
import type { RouteName } from '../config.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../gateway-env.js';
import { createReadBody, jsonBodyOf, type ReadBodyOptions } from '../middleware/read-body.js';
import { invalidRequest, parseJsonRequest, type RequestRead } from '../read-request.js';
import {
  imagesRequestSchema,
  speechRequestSchema,
  textRequestSchema,
  transcriptionsRequestSchema,
  videosRequestSchema,
} from '../request-schemas.js';
import { serveCall } from './serve-call.js';
import { serveText, serveTextStream } from './text.js';

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
function encodeVideoJob(target: string, operation: unknown): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify({ target, operation })));
}

function decodeVideoJob(id: string): { target: string; operation: unknown } | undefined {
  if (!/^[A-Za-z0-9_-]{1,8192}$/.test(id)) return undefined;
  const bytes = fromBase64Url(id);
  if (bytes === undefined) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const read = readJson(text, { maxDepth: 32 });
    const value = read.ok ? (read.value as { target?: unknown; operation?: unknown }) : undefined;
    if (typeof value?.target !== 'string' || value.operation === undefined) return undefined;
    return { target: value.target, operation: value.operation };
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
  if (envelope.success && envelope.metadata.job_status === 'pending') {
    Object.assign(envelope.metadata, { job_id: answer.job, poll: `/v1/videos/${answer.job}` });
  }
  return envelope;
}

/**
 * `@ai-sdk/google` adds the provider's API key (`key=`) to a Gemini video URL on the API's own origin, so that the
 * URL downloads as it is. The gateway never answers a provider key: it answers such a URL without it.
 */
function withoutProviderKey(target: Target, answer: VideoAnswer): VideoAnswer {
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
function checkImageModel(target: Target): void {
  if (target.provider.type === 'google' && !target.modelId.startsWith('gemini-')) {
    throw new InvalidArgumentError({
      parameter: 'model',
      value: target.modelId,
      message: `Google image models are Gemini models (gemini-…) through the gateway, not "${target.modelId}".`,
    });
  }
}

type Handler<T> = (c: Context<GatewayEnv>, body: T) => Promise<Response>;

/** Register `POST /v1/<route>`: other methods get a `VALIDATION_ERROR` envelope naming POST; the body is read strictly. */
function post<T>(
  app: Hono<GatewayEnv>,
  runtime: GatewayRuntime,
  route: RouteName,
  parse: ReadBodyOptions<T>['parse'],
  handle: Handler<T>,
): void {
  const readBody = createReadBody({
    maxBytes: runtime.maxBodyBytes(route),
    timeoutMs: runtime.bodyTimeoutMs,
    logContent: runtime.logContent,
    parse,
  });
  const onlyPost: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    if (c.req.method === 'POST') return next();
    return respond(
      c,
      systemFailure('VALIDATION_ERROR', `Use POST for /v1/${route}, not ${c.req.method}.`, c.get('traceId'), {
        method: c.req.method,
        allowed: ['POST'],
      }),
      { allow: 'POST' },
    );
  };
  app.all(`/v1/${route}`, onlyPost, readBody, (c) => handle(c, c.req.valid('json')));
}

/** A transcription request, from either body it takes. */
interface TranscriptionBody {
  model: string;
  audio: Uint8Array;
  media_type?: string | undefined;
}

/** `POST /v1/transcriptions` takes multipart (`file`, `model`) as well as JSON with base64 `audio`. */
async function parseTranscription(
  bytes: Uint8Array,
  c: Context<GatewayEnv>,
): Promise<RequestRead<TranscriptionBody>> {
  const type = c.req.header('content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
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
  const parsed = parseJsonRequest(bytes, transcriptionsRequestSchema);
  if (!parsed.ok) return parsed;
  // The schema has checked that `audio` is base64 already.
  const audio = fromBase64(parsed.value.audio);
  if (audio === undefined) {
    return { ok: false, problem: invalidRequest([{ path: '/audio', message: 'Must be base64.' }]) };
  }
  return { ok: true, value: { model: parsed.value.model, audio, media_type: parsed.value.media_type } };
}

/** Register the routes that call providers: text, images, speech, transcriptions and videos. */
export function registerProviderRoutes(app: Hono<GatewayEnv>, runtime: GatewayRuntime): void {
  post(app, runtime, 'text', jsonBodyOf(textRequestSchema), (c, body) =>
    body.stream === true ? serveTextStream(c, runtime, body) : serveText(c, runtime, body),
  );
  post(app, runtime, 'images', jsonBodyOf(imagesRequestSchema), (c, body) =>
    serveCall(c, runtime, {
      route: 'images',
      modality: 'images',
      model: body.model,
      call: ({ target, signal, headers }) => {
        checkImageModel(target);
        return generateImage({
          model: target.provider.images?.(target.modelId) as never,
          prompt: body.prompt,
          ...(body.n === undefined ? {} : { n: body.n }),
          ...(body.size === undefined ? {} : { size: body.size as `${number}x${number}` }),
          ...(body.aspect_ratio === undefined
            ? {}
            : { aspectRatio: body.aspect_ratio as `${number}:${number}` }),
          ...(body.seed === undefined ? {} : { seed: body.seed }),
          maxRetries: 0,
          abortSignal: signal,
          headers,
        });
      },
      convert: fromGenerateImage,
    }),
  );
  post(app, runtime, 'speech', jsonBodyOf(speechRequestSchema), (c, body) =>
    serveCall(c, runtime, {
      route: 'speech',
      modality: 'speech',
      model: body.model,
      call: ({ target, signal, headers }) =>
        generateSpeech({
          model: target.provider.speech?.(target.modelId) as never,
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
  post(app, runtime, 'transcriptions', parseTranscription, (c, body) => {
    const { model, audio, media_type } = body;
    return serveCall(c, runtime, {
      route: 'transcriptions',
      modality: 'transcriptions',
      model,
      call: ({ target, signal, headers }) =>
        transcribe({
          model: target.provider.transcriptions?.(target.modelId) as never,
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
    });
  });
  post(app, runtime, 'videos', jsonBodyOf(videosRequestSchema), (c, body) =>
    serveCall(c, runtime, {
      route: 'videos',
      modality: 'videos',
      model: body.model,
      // A video is a job: start it, then poll its status until it ends or the route's deadline passes — or,
      // with "wait": false, answer at once with a job id to poll at GET /v1/videos/{job_id}.
      // Finished videos are answered by URL when the provider gives one; the gateway does not download them.
      call: async ({ target, signal, headers }) => {
        const model = target.provider.videos?.(target.modelId) as never;
        const started = await startVideo({
          model,
          prompt: body.prompt,
          ...(body.duration_s === undefined ? {} : { duration: body.duration_s }),
          ...(body.aspect_ratio === undefined
            ? {}
            : { aspectRatio: body.aspect_ratio as `${number}:${number}` }),
          ...(body.resolution === undefined ? {} : { resolution: body.resolution as `${number}x${number}` }),
          ...(body.seed === undefined ? {} : { seed: body.seed }),
          maxRetries: 0,
          abortSignal: signal,
          headers,
        });
        const job = encodeVideoJob(target.label, started.operation);
        if (body.wait === false) {
          return { status: { status: 'pending', response: started.response }, job } as VideoAnswer;
        }
        for (;;) {
          // A provider's status call may not honour the abort signal: stop polling once the request is over
          // (deadline, client gone), or the loop would go on after the answer was sent.
          signal.throwIfAborted();
          const status = await getVideoStatus(model, {
            operation: started.operation,
            headers,
            abortSignal: signal,
            maxRetries: 0,
          });
          if (status.status !== 'pending') return withoutProviderKey(target, { status, job } as VideoAnswer);
          await sleep(runtime.videoPollMs, signal);
        }
      },
      convert: videoEnvelope,
    }),
  );
  app.get('/v1/videos/:job', (c) => {
    const jobId = c.req.param('job');
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
      modality: 'videos',
      model: job.target,
      call: async ({ target, signal, headers }) => {
        const status = await getVideoStatus(target.provider.videos?.(target.modelId) as never, {
          operation: job.operation as never,
          headers,
          abortSignal: signal,
          maxRetries: 0,
        });
        return withoutProviderKey(target, { status, job: jobId } as VideoAnswer);
      },
      convert: videoEnvelope,
    });
  });
}
