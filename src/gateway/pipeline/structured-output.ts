import { z } from 'zod';
import { readJson } from '../../json/index.js';
import { assembleFailure } from '../../unified/assemble-output.js';
import type { UnifiedOutput } from '../../unified/types.js';
import { expandUnions, REQUEST_PARSE_OPTIONS } from '../basics/describe-issue.js';
import { isJsonSchema } from '../basics/json-value.js';
import { type ConfigProblem, problemsOf } from '../config/config-problem.js';
import type { TextRequest } from '../request/request-schemas.js';
import { withMetadata } from './build-envelope.js';

/**
 * Structured output (docs/gateway.md, "Structured output"): an answer to a `response_format` of `json_object`
 * or `json_schema` is a success only when its content is JSON and, for a schema, matches it. The parsed value
 * goes to `metadata.object`; anything else is `INVALID_PROVIDER_RESPONSE` naming every violation.
 */

/** Longest part of a broken answer kept in the failure's details. */
const MAX_KEPT_TEXT = 2000;

/** Checks an answer's text; built once per request. */
export interface ObjectCheck {
  /** The envelope as it stands when the answer holds the object, else the failure naming the violations. */
  apply(envelope: UnifiedOutput): UnifiedOutput;
}

/** The outcome of reading a request's `response_format`. */
export type ObjectCheckBuild =
  | { ok: true; check: ObjectCheck | undefined }
  | { ok: false; problems: ConfigProblem[] };

/** Build the check of a request's `response_format`; a schema the gateway cannot check is a request problem. */
export function createObjectCheck(format: TextRequest['response_format']): ObjectCheckBuild {
  if (format === undefined || format.type === 'text') return { ok: true, check: undefined };
  let schema: z.ZodType | undefined;
  if (format.type === 'json_schema') {
    const given = format.json_schema.schema;
    if (!isJsonSchema(given)) {
      return {
        ok: false,
        problems: [{ path: '/response_format/json_schema/schema', message: 'Must be a JSON object.' }],
      };
    }
    try {
      schema = z.fromJSONSchema(given);
    } catch (error) {
      return {
        ok: false,
        problems: [
          {
            path: '/response_format/json_schema/schema',
            message: `The gateway cannot check answers against this schema: ${error instanceof Error ? error.message : String(error)}.`,
          },
        ],
      };
    }
  }
  const name = format.type === 'json_schema' ? format.json_schema.name : undefined;
  return { ok: true, check: { apply: (envelope) => checkObject(envelope, schema, name) } };
}

/** A success's metadata for a failure: usage facts belong to successes. */
function withoutUsage(metadata: UnifiedOutput['metadata']): Record<string, unknown> {
  const { usage_reported: _reported, usage_details: _details, ...rest } = metadata as Record<string, unknown>;
  return rest;
}

function checkObject(envelope: UnifiedOutput, schema: z.ZodType | undefined, name: string | undefined) {
  // A turn that ends in tool calls has no answer yet: the object comes after the tool results.
  if (!envelope.success || envelope.metadata.finish_reason === 'tool_calls') return envelope;
  const read = readJson(envelope.content);
  let violations: ConfigProblem[];
  if (!read.ok) {
    violations = [{ path: '', message: `The answer is not JSON: ${read.error.message}` }];
  } else if (schema === undefined) {
    violations = [];
  } else {
    const parsed = schema.safeParse(read.value, REQUEST_PARSE_OPTIONS);
    violations = parsed.success ? [] : problemsOf(expandUnions(parsed.error.issues));
  }
  if (read.ok && violations.length === 0) return withMetadata(envelope, { object: read.value });
  const listed = violations
    .slice(0, 3)
    .map((violation) => `${violation.path || '/'}: ${violation.message}`)
    .join('; ');
  return assembleFailure(
    envelope.provider,
    'INVALID_PROVIDER_RESPONSE',
    read.ok
      ? `The answer does not match the requested schema${name === undefined ? '' : ` "${name}"`}: ${listed}`
      : 'The answer to a JSON request is not JSON.',
    {
      violations,
      ...(name === undefined ? {} : { schema_name: name }),
      content: envelope.content.slice(0, MAX_KEPT_TEXT),
    },
    withoutUsage(envelope.metadata),
  );
}
