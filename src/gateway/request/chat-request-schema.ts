import { z } from 'zod';

/**
 * The OpenAI-style chat request that `POST /v1/text` takes beside its short forms: messages with content parts
 * and tool calls, tools, tool choice, structured output and sampling options (docs/gateway.md, "The text
 * request"). The same schemas validate requests and describe them in `GET /openapi.json`.
 */

/** Most messages in one request; an agent's long conversation fits, a runaway loop does not. */
const MAX_MESSAGES = 2048;
/** Most content parts in one message. */
const MAX_PARTS = 256;
/** Most tools in one request (OpenAI's own limit). */
const MAX_TOOLS = 128;
/** Most tool calls in one assistant message. */
const MAX_TOOL_CALLS = 128;

const mediaType = z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'Must be a media type such as application/pdf.');

/** A text part: `{type: "text", text}`. */
const textPart = z.strictObject({ type: z.literal('text'), text: z.string() });

/** The URL of an image part: an `https:` URL (passed to the provider as a URL) or a base64 `data:image/…` URL. */
export const imageUrlSchema = z
  .string()
  .regex(
    /^(https:\/\/[^\s]+|data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]*={0,2})$/,
    'Must be an https: URL or a data:image/…;base64, URL.',
  )
  .describe('An https: URL (never fetched by the gateway) or a base64 data: URL.');

/** An image by URL. */
const imageUrlPart = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({
    url: imageUrlSchema,
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});

/** Audio input: base64 bytes and their format. */
const inputAudioPart = z.strictObject({
  type: z.literal('input_audio'),
  input_audio: z.strictObject({
    data: z.base64().min(1).describe('The audio bytes, base64-encoded.'),
    format: z.enum(['wav', 'mp3']),
  }),
});

/** A file (a PDF, say): base64 `file_data` (or a `data:` URL) with its media type. */
/** The bytes of a file part: base64, or a base64 `data:` URL. */
export const fileDataSchema = z
  .string()
  .min(1)
  .regex(
    /^(data:[a-z]+\/[a-z0-9.+-]+;base64,)?[A-Za-z0-9+/]*={0,2}$/,
    'Must be base64 bytes or a data:…;base64, URL.',
  )
  .describe('The file bytes, base64-encoded, or a base64 data: URL.');

const filePart = z.strictObject({
  type: z.literal('file'),
  file: z.strictObject({
    file_data: fileDataSchema,
    media_type: mediaType.optional().describe('Media type of the file; taken from a data: URL when absent.'),
    filename: z.string().min(1).max(256).optional(),
  }),
});

const userPart = z.discriminatedUnion('type', [textPart, imageUrlPart, inputAudioPart, filePart], {
  error: 'Must be a part of type text, image_url, input_audio or file.',
});

const textOnly = z.union([z.string(), z.array(textPart).max(MAX_PARTS)], {
  error: 'Must be a string or a list of text parts.',
});

/** One tool call the model made, as an assistant message carries it back. */
const toolCall = z.strictObject({
  id: z.string().min(1).max(256),
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1).max(64),
    arguments: z.string().describe('The arguments as a JSON text, as the model wrote them.'),
  }),
});

const systemMessage = z.strictObject({
  role: z.literal('system'),
  content: textOnly,
  name: z.string().optional(),
});
const developerMessage = z.strictObject({
  role: z.literal('developer'),
  content: textOnly,
  name: z.string().optional(),
});
const userMessage = z.strictObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(userPart).min(1).max(MAX_PARTS)], {
    error: 'Must be a string or a non-empty list of parts.',
  }),
  name: z.string().optional(),
});
const assistantMessage = z.strictObject({
  role: z.literal('assistant'),
  content: z.union([textOnly, z.null()]).optional(),
  tool_calls: z.array(toolCall).min(1).max(MAX_TOOL_CALLS).optional(),
  name: z.string().optional(),
  // An OpenAI client sends an earlier answer back as it got it: these members of it say nothing to the model.
  refusal: z.null().optional().describe('Accepted as null, as an earlier answer carries it.'),
  annotations: z
    .array(z.record(z.string(), z.unknown()))
    .max(MAX_PARTS)
    .optional()
    .describe("An earlier answer's citations; not sent to the model."),
  audio: z.null().optional(),
});
const toolMessage = z.strictObject({
  role: z.literal('tool'),
  tool_call_id: z.string().min(1).max(256).describe('The id of the assistant tool call this answers.'),
  content: textOnly.describe('The tool result (JSON text is passed on as JSON).'),
});

/** A chat message: `system`, `developer`, `user` (text or parts), `assistant` (text and tool calls) or `tool`. */
export const chatMessageSchema = z.discriminatedUnion(
  'role',
  [systemMessage, developerMessage, userMessage, assistantMessage, toolMessage],
  { error: 'Must be a message whose role is system, developer, user, assistant or tool.' },
);

/** The messages of a request, oldest first. */
export const chatMessagesSchema = z.array(chatMessageSchema).min(1).max(MAX_MESSAGES);

const jsonSchemaObject = z
  .record(z.string(), z.unknown())
  .describe('A JSON Schema (an object), passed to the provider.');

/** A function's declaration: its name, description, JSON Schema parameters and strictness. */
export const toolFunctionShape = {
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, "_" or "-".')
    .describe('The tool name.'),
  description: z.string().max(4096).optional(),
  parameters: jsonSchemaObject.optional(),
  strict: z.boolean().optional(),
} as const;

/** A function the model may call; the gateway never runs it. */
const toolSchema = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject(toolFunctionShape),
});

/** Most tools in one request. */
export { MAX_TOOLS };

/** `response_format`: a text or JSON answer, the JSON checked against a schema when one is given. */
export const responseFormatSchema = z
  .discriminatedUnion(
    'type',
    [
      z.strictObject({ type: z.literal('text') }),
      z.strictObject({ type: z.literal('json_object') }),
      z.strictObject({
        type: z.literal('json_schema'),
        json_schema: z.strictObject({
          name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, "_" or "-".'),
          description: z.string().optional(),
          schema: jsonSchemaObject,
          strict: z.boolean().optional(),
        }),
      }),
    ],
    { error: 'Must be {type: "text"}, {type: "json_object"} or {type: "json_schema", json_schema}.' },
  )
  .optional()
  .describe('Ask for a JSON answer; json_schema answers are checked against the schema.');

/** The largest token count a request may name: more than any model's window, and an exact JSON integer. */
export const MAX_TOKEN_COUNT = 2 ** 32 - 1;

const tokenCountMessage = `Must be a whole number of tokens from 1 to ${MAX_TOKEN_COUNT}.`;

/** A number of tokens a request sets (`max_tokens` and its synonyms), said in one sentence whatever is wrong. */
export const tokenCountSchema = z
  .number(tokenCountMessage)
  .int(tokenCountMessage)
  .min(1, tokenCountMessage)
  .max(MAX_TOKEN_COUNT, tokenCountMessage);

/** The synonyms of the answer's token limit; a request gives at most one of them. */
export const TOKEN_LIMIT_NAMES = ['max_output_tokens', 'max_tokens', 'max_completion_tokens'] as const;

/** The options of the chat request, as `POST /v1/text` takes them beside `input`/`messages`. */
export const chatOptionsShape = {
  tools: z.array(toolSchema).max(MAX_TOOLS).optional().describe('Functions the model may call.'),
  tool_choice: z
    .union(
      [
        z.enum(['auto', 'none', 'required']),
        z.strictObject({
          type: z.literal('function'),
          function: z.strictObject({ name: z.string().min(1).max(64) }),
        }),
      ],
      { error: 'Must be "auto", "none", "required" or {type: "function", function: {name}}.' },
    )
    .optional(),
  parallel_tool_calls: z.boolean().optional().describe('false: at most one tool call per answer.'),
  response_format: responseFormatSchema,
  top_p: z.number().min(0).max(1).optional(),
  top_k: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Sample only from the k likeliest tokens (Anthropic and Gemini; refused by OpenAI families).'),
  stop: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(4)], {
      error: 'Must be a string or a list of 1 to 4 strings.',
    })
    .optional(),
  seed: z.number().int().optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  max_tokens: tokenCountSchema.optional().describe('The same as max_output_tokens.'),
  max_completion_tokens: tokenCountSchema.optional().describe('The same as max_output_tokens.'),
  n: z
    .literal(1, 'Must be 1: the gateway answers one choice.')
    .optional()
    .describe('The number of choices; only 1.'),
  user: z
    .string()
    .max(256)
    .optional()
    .describe(
      'An id of the end user: passed to OpenAI targets, unused by others (it does not change the answer).',
    ),
  store: z
    .boolean()
    .optional()
    .describe(
      'Whether OpenAI keeps the exchange: passed to OpenAI targets, unused by others (the gateway stores no content).',
    ),
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((value) => Object.keys(value).length <= 16, 'Must hold at most 16 members.')
    .optional()
    .describe('Tags of the request: passed to OpenAI targets, unused by others.'),
  service_tier: z
    .enum(['auto', 'default', 'flex', 'scale', 'priority'])
    .optional()
    .describe(
      'OpenAI processing tier: passed to OpenAI targets; other targets take only "auto" and "default".',
    ),
  stream_options: z
    .strictObject({
      include_usage: z.boolean().optional(),
      include_obfuscation: z.boolean().optional(),
    })
    .optional()
    .describe("Accepted for OpenAI clients; verdict's streams always end with the usage."),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
  provider_options: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .optional()
    .describe("Passed to the AI SDK's providerOptions, keyed by provider (openai, anthropic, google…)."),
} as const;

/** A chat message after validation. */
export type ChatMessage = z.infer<typeof chatMessageSchema>;
/** A content part of a user message after validation. */
export type ChatUserPart = z.infer<typeof userPart>;
