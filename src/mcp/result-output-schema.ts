import { RESULT_CONTRACT_SCHEMA } from '../contract/contract-schema.js';
import { isJsonObject } from '../contract/findings.js';
import type { JsonSchema } from '../contract/schema.js';

const CORE_MEMBERS = ['success', 'message', 'error', 'error_code', 'details', 'warnings', 'meta'] as const;

/** The canonical schema without its identifiers, so that several tools can embed it in one Ajv instance. */
function canonicalInline(): JsonSchema {
  const { $id: _id, $schema: _schema, ...rest } = structuredClone(RESULT_CONTRACT_SCHEMA) as JsonSchema;
  return rest;
}

/** The `outputSchema` of a tool that returns contract results: an object schema, as MCP clients require. */
export interface ResultOutputSchema {
  /** Always `"object"`: SDK clients refuse an `outputSchema` whose root is not an object schema. */
  type: 'object';
  /** `success` and `message`. */
  required: string[];
  /** The core members and the domain fields. */
  properties: Record<string, unknown>;
  /** The canonical schema inline (no `$id`), then the constraints a success must meet. */
  allOf: JsonSchema[];
  /** `$defs` of the domain schema, when it has any. */
  [keyword: string]: unknown;
}

/**
 * The `outputSchema` a tool that returns contract results publishes (see docs/mcp.md): an object schema that requires
 * `success` and `message`, lists the core members and the domain fields under `properties`, and embeds the
 * canonical schema (without `$id`) in `allOf`. The domain's own constraints (`required`, …) apply to successes. verdict classifies it as `canonical_allof`; the SDK clients
 * compile it, which they do not do with a bare `$ref` to the canonical URL.
 * @example
 * resultOutputSchema({ type: 'object', properties: { sha256: { type: 'string' } } }).allOf[0].title
 * // 'QZX Result Contract v1'
 */
export function resultOutputSchema(domainSchema?: JsonSchema): ResultOutputSchema {
  const canonical = canonicalInline();
  const coreProperties = canonical.properties as Record<string, JsonSchema>;
  const properties: Record<string, unknown> = {};
  for (const name of CORE_MEMBERS) properties[name] = structuredClone(coreProperties[name]);
  const allOf: JsonSchema[] = [canonical];
  const root: JsonSchema = {};
  if (domainSchema !== undefined) {
    const domainProperties = isJsonObject(domainSchema.properties) ? domainSchema.properties : {};
    for (const [name, schema] of Object.entries(domainProperties)) {
      // The contract owns its core members; a domain schema cannot loosen them.
      if (!(CORE_MEMBERS as readonly string[]).includes(name)) properties[name] = structuredClone(schema);
    }
    const {
      properties: _properties,
      type: _type,
      $id: _id,
      $schema: _schema,
      title: _title,
      description: _description,
      $defs,
      ...successShape
    } = domainSchema;
    // `#/$defs/…` references in the domain properties must still resolve from the root.
    if ($defs !== undefined) root.$defs = structuredClone($defs);
    // A domain schema describes what a success carries (`required: ["hash"]`); a failure need not carry it.
    if (Object.keys(successShape).length > 0) {
      const then = structuredClone(successShape);
      // `additionalProperties` and `unevaluatedProperties` only see the `properties` beside them: moved into
      // `then` alone, `additionalProperties: false` would refuse `success` and `message` themselves.
      const closed = ['additionalProperties', 'unevaluatedProperties'].some((keyword) => keyword in then);
      if (closed) then.properties = structuredClone(properties);
      allOf.push({
        if: { properties: { success: { const: true } }, required: ['success'] },
        then,
      });
    }
  }
  return { type: 'object', required: ['success', 'message'], properties, ...root, allOf };
}
