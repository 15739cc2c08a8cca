import { z } from 'zod';

/**
 * The Anthropic Messages request (`POST /anthropic/v1/messages`) as the Anthropic SDKs send it, checked before
 * it is translated to the gateway's text request (docs/gateway.md, "Anthropic clients"). The same schema
 * describes the route in `GET /openapi.json`. Members the gateway cannot pass on are refused by name.
 */

/** Most messages in one request, as for the text request. */
const MAX_MESSAGES = 2048;
/** Most content blocks in one message. */
const MAX_BLOCKS = 256;
/** Most tools in one request. */
const MAX_TOOLS = 128;

/** A prompt-caching hint; accepted, and not passed on (docs/gateway.md, "Anthropic clients"). */
const cacheControl = z.strictObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Must be base64 bytes.');

/** `{type: "text", text}`; citations of a previous answer are accepted and not passed on. */
const textBlock = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: cacheControl.nullable().optional(),
  citations: z.array(z.unknown()).nullable().optional(),
});

/** An image as base64 bytes or an `https:` URL. */
const imageBlock = z.strictObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('base64'),
      media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
      data: base64,
    }),
    z.strictObject({
      type: z.literal('url'),
      url: z.string().regex(/^https:\/\/\S+$/, 'Must be an https: URL.'),
    }),
  ]),
  cache_control: cacheControl.nullable().optional(),
});

/** A document: a base64 PDF or plain text. */
const documentBlock = z.strictObject({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: base64 }),
    z.strictObject({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
  ]),
  title: z.string().nullable().optional(),
  context: z.string().nullable().optional(),
  citations: z.strictObject({ enabled: z.boolean().optional() }).nullable().optional(),
  cache_control: cacheControl.nullable().optional(),
});

/** A tool call the model made, as the assistant turn carries it back. */
const toolUseBlock = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string().min(1).max(256),
  name: z.string().min(1).max(64),
  input: z.record(z.string(), z.unknown()),
  cache_control: cacheControl.nullable().optional(),
});

/** The result of a tool call: text, or text blocks (images in a result are refused by the translation). */
const toolResultBlock = z.strictObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1).max(256),
  content: z
    .union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock])).max(MAX_BLOCKS)])
    .optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl.nullable().optional(),
});

/** A thinking block of an earlier answer; accepted in the history and not passed on. */
const thinkingBlock = z.strictObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
const redactedThinkingBlock = z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() });

const contentBlock = z.discriminatedUnion(
  'type',
  [textBlock, imageBlock, documentBlock, toolUseBlock, toolResultBlock, thinkingBlock, redactedThinkingBlock],
  {
    error:
      'Must be a block of type text, image, document, tool_use, tool_result, thinking or redacted_thinking.',
  },
);

/** One message of the conversation: `user` or `assistant`, a string or a list of blocks. */
const message = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(contentBlock).max(MAX_BLOCKS)], {
    error: 'Must be a string or a list of content blocks.',
  }),
});

/** A client tool: a name, a description and the JSON Schema of its input. */
const customTool = z.strictObject({
  type: z.literal('custom').optional(),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, "_" or "-".'),
  description: z.string().max(4096).optional(),
  input_schema: z
    .record(z.string(), z.unknown())
    .describe('A JSON Schema (an object), passed to the provider.'),
  cache_control: cacheControl.nullable().optional(),
});

/** One of Anthropic's server tools (web search, code execution…): recognized so it can be refused by name. */
const serverTool = z.looseObject({
  type: z.string().regex(/^(?!custom$).+/),
  name: z.string(),
});

const parallel = { disable_parallel_tool_use: z.boolean().optional() };

/** The Anthropic Messages request body. */
export const messagesRequestSchema = z.strictObject({
  model: z.string().min(1).describe('A `provider:model` target or a configured alias, of any provider.'),
  messages: z.array(message).min(1).max(MAX_MESSAGES),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), z.array(textBlock).max(MAX_BLOCKS)]).optional(),
  stop_sequences: z.array(z.string().min(1)).max(4).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().positive().optional(),
  tools: z
    .array(z.union([customTool, serverTool]))
    .max(MAX_TOOLS)
    .optional(),
  tool_choice: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('auto'), ...parallel }),
      z.strictObject({ type: z.literal('any'), ...parallel }),
      z.strictObject({ type: z.literal('tool'), name: z.string().min(1).max(64), ...parallel }),
      z.strictObject({ type: z.literal('none') }),
    ])
    .optional(),
  metadata: z.strictObject({ user_id: z.string().max(256).nullable().optional() }).optional(),
  thinking: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
      z.strictObject({ type: z.literal('disabled') }),
      z.strictObject({ type: z.literal('adaptive') }),
    ])
    .optional(),
  service_tier: z.enum(['auto', 'standard_only']).optional(),
});

/** `POST /anthropic/v1/messages/count_tokens`: the request without the answer's options. */
export const countTokensRequestSchema = messagesRequestSchema
  .pick({ model: true, messages: true, system: true, tools: true, tool_choice: true, thinking: true })
  .strict();

/** A Messages request after validation. */
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
/** A count_tokens request after validation. */
export type CountTokensRequest = z.infer<typeof countTokensRequestSchema>;
/** One content block after validation. */
export type MessagesContentBlock = z.infer<typeof contentBlock>;
