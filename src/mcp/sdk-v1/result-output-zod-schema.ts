import type { JsonSchema } from '../../contract/schema.js';
import { resultOutputSchema } from '../result-output-schema.js';
import {
  type JsonSchemaZod,
  type ZodFromJsonSchemaOptions,
  zodFromJsonSchema,
} from './zod-from-json-schema.js';

/**
 * The `outputSchema` of a contract tool on an `@modelcontextprotocol/sdk` 1.x server: a zod schema that the v1
 * `McpServer.registerTool` accepts, advertises as exactly `resultOutputSchema(domainSchema)` (classified
 * `canonical_allof`, the strongest mode a schema with an object root and domain fields can have), and checks
 * successes against.
 * @example
 * server.registerTool('hash', { outputSchema: resultOutputZodSchema({ type: 'object', properties: { sha256: { type: 'string' } } }) }, handler);
 */
export function resultOutputZodSchema(
  domainSchema?: JsonSchema,
  options: ZodFromJsonSchemaOptions = {},
): JsonSchemaZod {
  return zodFromJsonSchema(resultOutputSchema(domainSchema), options);
}
