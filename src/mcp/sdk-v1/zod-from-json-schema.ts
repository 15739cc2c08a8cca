import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as z from 'zod/v4';
import type { JsonSchema } from '../../contract/schema.js';
import { VerdictError } from '../../errors.js';

/** Options of {@link zodFromJsonSchema}. */
export interface ZodFromJsonSchemaOptions {
  /** Compiles the JSON Schema that checks values; default: the v1 SDK's own Ajv validator, as its clients use. */
  validator?: jsonSchemaValidator;
}

/** A zod object schema that advertises a given JSON Schema and validates values against it. */
export type JsonSchemaZod = z.ZodObject<Record<never, never>, z.core.$loose>;

let defaultValidator: jsonSchemaValidator | undefined;

/**
 * Wraps a JSON Schema (an object schema) in a zod schema that `@modelcontextprotocol/sdk` 1.x accepts as a tool's
 * `inputSchema` or `outputSchema`: `tools/list` advertises exactly `schema` (the SDK's zod-to-JSON-Schema step
 * reads it back from the zod metadata), and parsing checks a value against `schema` with a JSON Schema
 * validator, so what the server checks is what its clients check. Throws `invalid_argument` when the root of
 * `schema` is not `"type": "object"`: the v1 SDK and its clients only take object schemas there.
 * @example
 * server.registerTool('hash', { inputSchema: zodFromJsonSchema({ type: 'object', properties: { path: { type: 'string' } } }) }, …);
 */
export function zodFromJsonSchema(schema: JsonSchema, options: ZodFromJsonSchemaOptions = {}): JsonSchemaZod {
  if (schema.type !== 'object') {
    throw new VerdictError(
      'invalid_argument',
      'The MCP v1 SDK takes object schemas only: the JSON Schema needs "type": "object" at its root.',
    );
  }
  const advertised = structuredClone(schema);
  let check: ((value: unknown) => string | undefined) | undefined;
  const compile = () => {
    defaultValidator ??= new AjvJsonSchemaValidator();
    const validate = (options.validator ?? defaultValidator).getValidator(advertised as JsonSchemaType);
    return (value: unknown) => {
      const outcome = validate(value);
      return outcome.valid ? undefined : outcome.errorMessage;
    };
  };
  // Compiled when first used, so registering a tool never pays for a schema no call needs.
  const validated = z.looseObject({}).superRefine((value, ctx) => {
    check ??= compile();
    const problem = check(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });
  // zod's JSON Schema output starts from the base object (`properties: {}`, `additionalProperties: {}`, and a
  // `$schema` the SDK's draft-07 target adds) and then assigns the metadata: members set to undefined are
  // dropped when zod finalizes, so the advertised schema is `schema` itself and nothing else.
  return validated.meta({
    $schema: undefined,
    properties: undefined,
    additionalProperties: undefined,
    ...advertised,
  }) as JsonSchemaZod;
}
