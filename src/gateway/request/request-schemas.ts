import { z } from 'zod';
import { isJsonObject } from '../../contract/findings.js';
import { hasControlCharacter } from '../basics/plain-id.js';
import type { RouteName } from '../basics/route-table.js';
import {
  chatMessagesSchema,
  chatOptionsShape,
  TOKEN_LIMIT_NAMES,
  tokenCountSchema,
} from './chat-request-schema.js';

/**
 * The request bodies of the gateway's routes. The same schemas validate requests and generate
 * `GET /openapi.json`, so the document cannot drift from what the gateway accepts (docs/gateway.md).
 */

/** The `model` of every request: a target or an alias. */
export const modelSchema = z
  .string()
  .min(1)
  .refine((value) => !hasControlCharacter(value), 'Must not hold control characters.')
  .describe('A `provider:model` target (`openai:gpt-4o-mini`) or a configured alias.');
const model = modelSchema;

/** A request names its answer's token limit once, by one of its synonyms. */
export function checkOneTokenLimit(body: Record<string, unknown>, context: z.RefinementCtx): void {
  const given = TOKEN_LIMIT_NAMES.filter((name) => body[name] !== undefined);
  if (given.length > 1) {
    context.addIssue({
      code: 'custom',
      path: [given[1] as string],
      message: `Give only one of ${given.map((name) => `"${name}"`).join(', ')}.`,
    });
  }
}

/** `POST /v1/text`: generate text, optionally streamed as server-sent events. */
export const textRequestSchema = z
  .strictObject({
    model,
    input: z
      .union([z.string().min(1), chatMessagesSchema], {
        error: 'Must be a non-empty string or a non-empty list of messages.',
      })
      .optional()
      .describe('A prompt, or a list of messages (the same as `messages`); give `input` or `messages`.'),
    messages: chatMessagesSchema
      .optional()
      .describe('The conversation, OpenAI chat style: system, developer, user, assistant and tool messages.'),
    system: z.string().optional().describe('System instructions.'),
    temperature: z.number().min(0).max(2).optional(),
    max_output_tokens: tokenCountSchema.optional(),
    ...chatOptionsShape,
    stream: z
      .boolean()
      .optional()
      .describe('Answer with text/event-stream: delta and tool-call events, then the envelope.'),
  })
  .superRefine(
    (body, context) => {
      if ((body.input === undefined) === (body.messages === undefined)) {
        context.addIssue({
          code: 'custom',
          path: body.input === undefined ? [] : ['messages'],
          message:
            body.input === undefined
              ? 'Give the prompt as "input" or the conversation as "messages".'
              : 'Give "input" or "messages", not both.',
        });
      }
      checkOneTokenLimit(body, context);
    },
    // Checked even when other members are wrong, so that every problem of a request is listed at once.
    { when: ({ value }) => isJsonObject(value) },
  )
  .meta({ oneOf: [{ required: ['input'] }, { required: ['messages'] }] });

/** `POST /v1/images`: generate images. */
export const imagesRequestSchema = z.strictObject({
  model,
  prompt: z.string().min(1),
  n: z.number().int().min(1).max(10).optional(),
  size: z
    .string()
    .regex(/^[1-9][0-9]{1,4}x[1-9][0-9]{1,4}$/, 'must be WIDTHxHEIGHT, such as 1024x1024')
    .optional(),
  aspect_ratio: z
    .string()
    .regex(/^[1-9][0-9]*:[1-9][0-9]*$/, 'must be W:H, such as 16:9')
    .optional(),
  seed: z.number().int().optional(),
});

/** `POST /v1/speech`: turn text into audio. */
export const speechRequestSchema = z.strictObject({
  model,
  input: z.string().min(1).max(10_000),
  voice: z.string().min(1).optional(),
  format: z.enum(['mp3', 'wav', 'opus', 'aac', 'flac', 'pcm']).optional(),
  instructions: z.string().optional(),
  speed: z.number().min(0.25).max(4).optional(),
});

/** `POST /v1/transcriptions` as JSON: base64 audio and its media type (multipart `file` is also accepted). */
export const transcriptionsRequestSchema = z.strictObject({
  model,
  audio: z.base64().min(1).describe('The audio bytes, base64-encoded.'),
  media_type: z
    .string()
    .regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'must be a media type such as audio/mpeg')
    .describe('Media type of the audio.'),
});

/** `POST /v1/videos`: generate a video (by default the request waits for the job within the route's timeout). */
export const videosRequestSchema = z.strictObject({
  model,
  prompt: z.string().min(1),
  duration_s: z.number().positive().max(600).optional(),
  aspect_ratio: z
    .string()
    .regex(/^[1-9][0-9]*:[1-9][0-9]*$/, 'must be W:H, such as 16:9')
    .optional(),
  resolution: z
    .string()
    .regex(/^[1-9][0-9]{1,4}x[1-9][0-9]{1,4}$/, 'must be WIDTHxHEIGHT, such as 1280x720')
    .optional(),
  seed: z.number().int().optional(),
  wait: z
    .boolean()
    .optional()
    .describe(
      'false: answer at once with a job_id to poll at GET /v1/videos/{job_id} (default true: wait); refused by the providers whose videos finish in one call (google-vertex, xai, fal).',
    ),
});

/** Most texts one embeddings request may hold (OpenAI's own limit). */
export const MAX_EMBEDDING_INPUTS = 2048;

/** `POST /openai/v1/embeddings`: embed one text or a list of them, as OpenAI's API takes it. */
export const embeddingsRequestSchema = z.strictObject({
  model,
  input: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(MAX_EMBEDDING_INPUTS)], {
      error: `Must be a non-empty string or a list of 1 to ${MAX_EMBEDDING_INPUTS} non-empty strings (token arrays are not taken).`,
    })
    .describe('The text to embed, or a list of texts.'),
  encoding_format: z
    .enum(['float', 'base64'])
    .optional()
    .describe('float (the default): lists of numbers; base64: little-endian float32 bytes.'),
  dimensions: z
    .number()
    .int()
    .min(1)
    .max(65_536)
    .optional()
    .describe('Fewer dimensions, for the models that take it (OpenAI text-embedding-3, Gemini).'),
  user: z.string().max(256).optional().describe('Accepted; it does not change the answer.'),
});

/** A text request after validation. */
export type TextRequest = z.infer<typeof textRequestSchema>;
/** An images request after validation. */
export type ImagesRequest = z.infer<typeof imagesRequestSchema>;
/** A speech request after validation. */
export type SpeechRequest = z.infer<typeof speechRequestSchema>;
/** A transcriptions request after validation. */
export type TranscriptionsRequest = z.infer<typeof transcriptionsRequestSchema>;
/** An embeddings request after validation. */
export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;
/** A videos request after validation. */
export type VideosRequest = z.infer<typeof videosRequestSchema>;

/**
 * The JSON body schema of each route that calls providers, by its name in the route table; a route of the table
 * without one does not compile.
 */
export const REQUEST_SCHEMAS = {
  text: textRequestSchema,
  images: imagesRequestSchema,
  speech: speechRequestSchema,
  transcriptions: transcriptionsRequestSchema,
  videos: videosRequestSchema,
  embeddings: embeddingsRequestSchema,
} as const satisfies Readonly<Record<RouteName, z.ZodType>>;
