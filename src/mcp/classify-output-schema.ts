import { CONTRACT_SCHEMA_URL, ERROR_CODE_PATTERN } from '../contract/codes.js';
import { RESULT_CONTRACT_SCHEMA } from '../contract/contract-schema.js';
import { escapePointerToken, isJsonObject } from '../contract/findings.js';

import { canonicalJson } from './canonical-json.js';
import type { McpViolationCode, McpWarning, OutputSchemaMode } from './codes.js';

/** A problem with an `outputSchema`; its path is a JSON Pointer into the schema. */
export interface OutputSchemaViolation {
  /** Stable code from {@link MCP_VIOLATION_CODES}. */
  code: Extract<McpViolationCode, 'output_schema_not_object' | 'output_schema_not_contract'>;
  /** JSON Pointer into the schema (`""` for its root). */
  path: string;
  /** One sentence for people. */
  message: string;
}

/** What {@link classifyOutputSchema} found: the strongest mode that holds, or `null` with the reasons. */
export interface OutputSchemaClassification {
  /** The strongest relationship to the canonical schema, or `null` when there is none. */
  mode: OutputSchemaMode | null;
  /** Why the schema has no mode; empty when `mode` is not null. */
  violations: OutputSchemaViolation[];
  /** Remarks: a structural core that proves less, a schema that SDK clients reject. */
  warnings: McpWarning[];
}

// docs/mcp.md: keywords that say nothing about which documents are valid, plus the identifiers.
const IGNORED_KEYWORDS = new Set([
  'title',
  'description',
  'examples',
  '$comment',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$id',
  '$schema',
]);
const SUBSCHEMA_KEYWORDS = new Set([
  'not',
  'if',
  'then',
  'else',
  'items',
  'contains',
  'additionalProperties',
  'additionalItems',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
const SUBSCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
// Order inside these does not change meaning, so they compare as sets.
const SUBSCHEMA_SET_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf']);
const ORDERED_SUBSCHEMA_LIST_KEYWORDS = new Set(['prefixItems']);
// `true` here accepts everything, exactly as leaving the keyword out does.
const NO_OP_WHEN_TRUE = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'unevaluatedItems',
]);

/**
 * Reduces a schema to its constraints: annotations and identifiers dropped, set-like keywords sorted,
 * so that an independent copy of a schema with other descriptions compares equal. Member names under
 * `properties` are data, not keywords, and are kept whatever they are called.
 */
function constraintsOf(schema: unknown): unknown {
  if (!isJsonObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (IGNORED_KEYWORDS.has(key)) continue;
    if (NO_OP_WHEN_TRUE.has(key) && value === true) continue;
    let reduced: unknown = value;
    if (SUBSCHEMA_KEYWORDS.has(key)) reduced = constraintsOf(value);
    else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isJsonObject(value)) {
      const map: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        Object.defineProperty(map, name, { value: constraintsOf(value[name]), enumerable: true });
      }
      reduced = map;
    } else if (SUBSCHEMA_SET_KEYWORDS.has(key) && Array.isArray(value)) {
      reduced = value.map(constraintsOf).sort((a, b) => compare(canonicalJson(a), canonicalJson(b)));
    } else if (ORDERED_SUBSCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
      reduced = value.map(constraintsOf);
    } else if (key === 'required' && Array.isArray(value)) {
      reduced = [...new Set(value)].sort((a, b) => compare(String(a), String(b)));
    } else if (key === 'type' && Array.isArray(value) && value.length === 1) {
      reduced = value[0];
    }
    Object.defineProperty(out, key, { value: reduced, enumerable: true });
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const CANONICAL_CONSTRAINTS = canonicalJson(constraintsOf(RESULT_CONTRACT_SCHEMA));

function isCanonicalRef(schema: Record<string, unknown>): boolean {
  const ref = schema.$ref;
  return ref === CONTRACT_SCHEMA_URL || ref === `${CONTRACT_SCHEMA_URL}#`;
}

// The canonical schema nests 8 levels; a copy nesting far deeper (annotations included) cannot be it. The bound
// also keeps the recursive comparison below clear of the stack limit: a readable document may nest 10,000 deep.
const MAX_CANONICAL_DEPTH = 64;

/** True when `value` nests objects or arrays more than `limit` levels deep; iterative, so any depth is safe. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

function isCanonicalInline(schema: Record<string, unknown>): boolean {
  if (nestsDeeperThan(schema, MAX_CANONICAL_DEPTH)) return false;
  return canonicalJson(constraintsOf(schema)) === CANONICAL_CONSTRAINTS;
}

function canonicalModeOf(schema: unknown): OutputSchemaMode | null {
  if (!isJsonObject(schema)) return null;
  if (isCanonicalRef(schema)) return 'canonical_ref';
  if (isCanonicalInline(schema)) return 'canonical_inline';
  // allOf items at any depth, walked with a work list rather than recursion (nesting is unbounded).
  const pending: unknown[] = Array.isArray(schema.allOf) ? [...schema.allOf] : [];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (!isJsonObject(item)) continue;
    if (isCanonicalRef(item) || isCanonicalInline(item)) return 'canonical_allof';
    if (Array.isArray(item.allOf)) pending.push(...item.allOf);
  }
  return null;
}

const NON_BLANK_PATTERN = '\\S';

function isNonBlankStringSchema(schema: unknown): boolean {
  return (
    isJsonObject(schema) &&
    schema.type === 'string' &&
    Number.isInteger(schema.minLength) &&
    (schema.minLength as number) >= 1 &&
    schema.pattern === NON_BLANK_PATTERN
  );
}

function isErrorCodeSchema(schema: unknown): boolean {
  return isJsonObject(schema) && schema.type === 'string' && schema.pattern === ERROR_CODE_PATTERN.source;
}

/** Lists what keeps an object schema from being the structural core of a contract schema (empty when it is; see docs/mcp.md, "outputSchema modes"). */
function structuralGaps(schema: Record<string, unknown>): OutputSchemaViolation[] {
  const gaps: OutputSchemaViolation[] = [];
  const gap = (path: string, message: string) => {
    gaps.push({ code: 'output_schema_not_contract', path, message });
  };
  if (schema.type !== 'object') gap('/type', 'The structural core needs "type": "object" at the root.');
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of ['success', 'message']) {
    if (!required.includes(name))
      gap('/required', `The structural core must require ${JSON.stringify(name)}.`);
  }
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const property = (name: string) => (Object.hasOwn(properties, name) ? properties[name] : undefined);
  const at = (name: string) => `/properties/${escapePointerToken(name)}`;
  const success = property('success');
  if (!isJsonObject(success) || success.type !== 'boolean') {
    gap(at('success'), 'success must be declared with "type": "boolean" exactly.');
  }
  if (!isNonBlankStringSchema(property('message'))) {
    gap(at('message'), 'message must be declared as a string with integer minLength >= 1 and pattern "\\S".');
  }
  if (!isNonBlankStringSchema(property('error')) && !isErrorCodeSchema(property('error_code'))) {
    gap(
      '/properties',
      'At least one failure field must be declared: error as a non-blank string (minLength >= 1, pattern "\\S") or error_code as a string with pattern "^[a-z][a-z0-9_]*$".',
    );
  }
  return gaps;
}

/**
 * Classifies a tool's `outputSchema` by its relationship to the canonical contract schema (see docs/mcp.md):
 * `canonical_ref`, `canonical_inline`, `canonical_allof` or `structural_core`, else `null` with violations.
 * @example
 * classifyOutputSchema({ $ref: 'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json' }).mode
 * // 'canonical_ref'
 */
export function classifyOutputSchema(schema: unknown): OutputSchemaClassification {
  if (!isJsonObject(schema)) {
    return {
      mode: null,
      violations: [
        { code: 'output_schema_not_object', path: '', message: 'outputSchema must be a JSON object.' },
      ],
      warnings: [],
    };
  }
  const warnings: McpWarning[] = [];
  // Measured with the MCP SDKs (see docs/mcp.md): clients compile outputSchema with Ajv and fail on a root that is
  // not "type": "object", which a bare external $ref never is.
  if (schema.type !== 'object') {
    warnings.push({
      code: 'output_schema_not_portable',
      path: '',
      message:
        'outputSchema has no root "type": "object"; MCP SDK clients reject such a schema (and must not fetch a network $ref).',
    });
  }
  const canonical = canonicalModeOf(schema);
  if (canonical !== null) return { mode: canonical, violations: [], warnings };

  const gaps = structuralGaps(schema);
  if (gaps.length > 0) return { mode: null, violations: gaps, warnings };
  warnings.push({
    code: 'output_schema_structural_only',
    path: '',
    message:
      'outputSchema is only the structural core of the contract: it does not prove the failure/success rules or the other members.',
  });
  return { mode: 'structural_core', violations: [], warnings };
}
