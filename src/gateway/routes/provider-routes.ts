import {
  AISDKError,
  generateImage,
  generateSpeech,
  experimental_getVideoStatus as getVideoStatus,
  InvalidArgumentError,
  type JSONValue,
  experimental_startVideo as startVideo,
  transcribe,
  UnsupportedFunctionalityError,
} from 'ai';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { isJsonObject } from '../../contract/findings.js';
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
import { assembleFailure } from '../../unified/assemble-output.js';
import { fromBase64, fromBase64Url, toBase64Url } from '../../unified/base64.js';
import { traceIdOr } from '../../unified/trace-id-from.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { ModelOf } from '../ai-sdk/model-types.js';
import { isImageBytes } from '../basics/image-signature.js';
import { isJsonValue } from '../basics/json-value.js';
import { isRouteName, ROUTE_TABLE, type RouteKey, routeEntry } from '../basics/route-table.js';
import { createReadBody, jsonBodyOf, type ReadBodyOptions } from '../middleware/read-body.js';
import { withMetadata } from '../pipeline/build-envelope.js';
import type { Target } from '../pipeline/call-with-fallbacks.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../pipeline/gateway-env.js';
import { invalidRequest, parseJsonRequest, type RequestRead } from '../request/read-request.js';
import { REQUEST_SCHEMAS } from '../request/request-schemas.js';
import { serveCall } from './serve-call.js';
import { serveTextRequest } from './text.js';

/** A `WIDTHxHEIGHT` size, as the request schemas check it and the AI SDK types it. */
function isSize(value: string | undefined): value is `${number}x${number}` {
  return value !== undefined && /^[0-9]+x[0-9]+$/.test(value);
}

/** A `W:H` aspect ratio, as the request schemas check it and the AI SDK types it. */
function isRatio(value: string | undefined): value is `${number}:${number}` {
  return value !== undefined && /^[0-9]+:[0-9]+$/.test(value);
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
  return toBase64Url(new TextEncoder().encode(JSON.stringify({ target, operation })));
}

function decodeVideoJob(id: string): { target: string; operation: JSONValue } | undefined {
  if (!/^[A-Za-z0-9_-]{1,8192}$/.test(id)) return undefined;
  const bytes = fromBase64Url(id);
  if (bytes === undefined) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
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

/** A video model of the AI SDK's V3 specification, whose `doGenerate` polls until the video is done. */
type OneCallVideoModel = Extract<ModelOf<'videos'>, { specificationVersion: 'v3' }>;

/**
 * A video from a model that finishes in one call, answered as a job that ended (it needs no job id: the envelope
 * carries one only while a job is pending). The model's own `doGenerate` is called rather than
 * `experimental_generateVideo`, which downloads every video URL: the gateway answers URLs (docs/gateway.md,
 * "Endpoints"). Such a model gives no job to poll, so `"wait": false` is the request's mistake.
 */
async function generateVideoInOneCall(
  target: Target<ModelOf<'videos'>>,
  model: OneCallVideoModel,
  body: z.infer<(typeof REQUEST_SCHEMAS)['videos']>,
  options: {
    pollOptions: Record<string, Record<string, number>>;
    signal: AbortSignal;
    headers: Record<string, string>;
  },
): Promise<AiSdkVideoStatus> {
  if (body.wait === false) {
    throw new UnsupportedFunctionalityError({
      functionality: 'wait: false',
      message: `The ${target.provider.type} provider's video models finish in one call and give no job to poll: send the request without "wait": false.`,
    });
  }
  try {
    const result = await model.doGenerate({
      prompt: body.prompt,
      n: 1,
      aspectRatio: isRatio(body.aspect_ratio) ? body.aspect_ratio : undefined,
      resolution: isSize(body.resolution) ? body.resolution : undefined,
      duration: body.duration_s,
      fps: undefined,
      seed: body.seed,
      image: undefined,
      frameImages: undefined,
      inputReferences: undefined,
      generateAudio: undefined,
      providerOptions: options.pollOptions,
      abortSignal: options.signal,
      headers: options.headers,
    });
    return {
      status: 'completed',
      videos: result.videos,
      response: result.response,
      ...(result.providerMetadata === undefined ? {} : { providerMetadata: result.providerMetadata }),
    };
  } catch (error) {
    // These packages report a job the provider failed (or finished without a video) with an AISDKError of their
    // own name (`XAI_VIDEO_GENERATION_FAILED`, `VERTEX_VIDEO_GENERATION_FAILED`…), where a job model answers a
    // failed status: both are the same failed job. The AI SDK's own errors (`AI_…`) are read as they are.
    // One that ends an aborted call (`…_ABORTED`) is the deadline's or the client's, not the provider's.
    if (AISDKError.isInstance(error) && !error.name.startsWith('AI_') && !options.signal.aborted) {
      return { status: 'error', error: error.message };
    }
    throw error;
  }
}

type Handler<T> = (c: Context<GatewayEnv>, body: T) => Promise<Response>;

/**
 * Register a route that reads a JSON (or multipart) body at its path in the route table: other methods get a
 * `VALIDATION_ERROR` naming its method; the body is read strictly by `parse`, within the limits of the provider
 * route it calls (its own, or the one it is `partOf`), and its value reaches `handle` with its type.
 */
export function post<T>(
  app: Hono<GatewayEnv>,
  runtime: GatewayRuntime,
  key: RouteKey,
  parse: ReadBodyOptions<T>['parse'],
  handle: Handler<T>,
): void {
  const entry = routeEntry(key);
  const limits = isRouteName(key) ? key : entry.partOf;
  if (limits === undefined || !isRouteName(limits)) throw new Error(`Route ${key} calls no provider.`);
  const readBody = createReadBody({
    maxBytes: runtime.maxBodyBytes(limits),
    timeoutMs: runtime.bodyTimeoutMs,
    logContent: runtime.logContent,
    parse,
  });
  const { path, method } = entry;
  const onlyItsMethod: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    if (c.req.method === method) return next();
    return respond(
      c,
      systemFailure('VALIDATION_ERROR', `Use ${method} for ${path}, not ${c.req.method}.`, c.get('traceId'), {
        method: c.req.method,
        allowed: [method],
      }),
      { allow: method },
    );
  };
  app.all(path, onlyItsMethod, readBody, (c) => handle(c, c.req.valid('json')));
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
  const parsed = parseJsonRequest(bytes, REQUEST_SCHEMAS.transcriptions);
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
  post(app, runtime, 'text', jsonBodyOf(REQUEST_SCHEMAS.text), (c, body) =>
    serveTextRequest(c, runtime, body),
  );
  post(app, runtime, 'images', jsonBodyOf(REQUEST_SCHEMAS.images), (c, body) =>
    serveCall(c, runtime, {
      route: 'images',
      model: body.model,
      call: ({ target, signal, headers }) => {
        checkImageModel(target);
        return generateImage({
          model: target.model,
          prompt: body.prompt,
          ...(body.n === undefined ? {} : { n: body.n }),
          ...(isSize(body.size) ? { size: body.size } : {}),
          ...(isRatio(body.aspect_ratio) ? { aspectRatio: body.aspect_ratio } : {}),
          ...(body.seed === undefined ? {} : { seed: body.seed }),
          maxRetries: 0,
          abortSignal: signal,
          headers,
        });
      },
      convert: (result, options) => {
        // A download on a provider's word may have fetched anything: only images are answered as images.
        if (result.images.some((image) => !isImageBytes(image.uint8Array))) {
          return assembleFailure(
            options.provider ?? 'system',
            'INVALID_PROVIDER_RESPONSE',
            "The provider's answer holds a file that is not an image where an image belongs.",
            { is_retryable: false },
            { trace_id: traceIdOr(options.traceId) },
          );
        }
        return fromGenerateImage(result, options);
      },
    }),
  );
  post(app, runtime, 'speech', jsonBodyOf(REQUEST_SCHEMAS.speech), (c, body) =>
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
  post(app, runtime, 'transcriptions', parseTranscription, (c, body) => {
    const { model, audio, media_type } = body;
    return serveCall(c, runtime, {
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
    });
  });
  post(app, runtime, 'videos', jsonBodyOf(REQUEST_SCHEMAS.videos), (c, body) =>
    serveCall(c, runtime, {
      route: 'videos',
      model: body.model,
      // A video is a job: start it, then poll its status until it ends or the route's deadline passes — or,
      // with "wait": false, answer at once with a job id to poll at GET /v1/videos/{job_id}.
      // Finished videos are answered by URL when the provider gives one; the gateway does not download them.
      call: async ({ target, signal, headers }) => {
        const { model } = target;
        const run = target.provider.videoRun;
        // A model of the older specification finishes in one call; a newer one starts a job.
        if (run?.kind === 'call' && model.specificationVersion === 'v3') {
          const options = { pollOptions: run.pollOptions(runtime.videoPollMs), signal, headers };
          const answer: VideoAnswer = {
            status: await generateVideoInOneCall(target, model, body, options),
            job: '',
          };
          return answer;
        }
        const started = await startVideo({
          model,
          prompt: body.prompt,
          ...(body.duration_s === undefined ? {} : { duration: body.duration_s }),
          ...(isRatio(body.aspect_ratio) ? { aspectRatio: body.aspect_ratio } : {}),
          ...(isSize(body.resolution) ? { resolution: body.resolution } : {}),
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
          const status = await getVideoStatus(model, {
            operation: started.operation,
            headers,
            abortSignal: signal,
            maxRetries: 0,
          });
          if (status.status !== 'pending') return withoutProviderKey(target, { status, job });
          await sleep(runtime.videoPollMs, signal);
        }
      },
      convert: videoEnvelope,
    }),
  );
  app.get(ROUTE_TABLE.video_job.label, (c) => {
    const jobId = c.req.param('job') ?? '';
    const decoded = decodeVideoJob(jobId);
    const provider =
      decoded === undefined ? undefined : runtime.providers.get(decoded.target.split(':')[0] ?? '');
    const run = provider?.videoRun;
    const job = run?.kind === 'job' && run.isOperation(decoded?.operation) ? decoded : undefined;
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
