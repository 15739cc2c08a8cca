import type { z } from 'zod';
import type { RouteKey } from '../basics/route-table.js';
import { countTokensRequestSchema, messagesRequestSchema } from './anthropic/messages-request-schema.js';
import { chatCompletionsRequestSchema } from './openai/chat-completions.js';
import { responsesRequestSchema } from './openai/responses.js';

/**
 * The JSON body schema of each drop-in surface route, by its name in the route table: the schemas that read
 * its requests also describe them in `GET /openapi.json`.
 */
export const SURFACE_REQUEST_SCHEMAS: Readonly<Partial<Record<RouteKey, z.ZodType>>> = {
  openai_chat_completions: chatCompletionsRequestSchema,
  openai_responses: responsesRequestSchema,
  anthropic_messages: messagesRequestSchema,
  anthropic_count_tokens: countTokensRequestSchema,
};
