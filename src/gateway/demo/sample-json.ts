/**
 * A value a JSON Schema accepts, made up deterministically: how the demo provider fills a tool call's input and
 * a structured answer (docs/gateway.md, "The demo provider"). It covers what tool and `json_schema` schemas use
 * (types, `const`, `enum`, the composition keywords, local `$ref`, string formats, numeric and length bounds);
 * a `pattern` is not honoured.
 */

/** The deepest schema level filled; deeper objects are empty and deeper arrays hold nothing. */
const MAX_DEPTH = 8;

/**
 * Bounds on what a schema from a request can make the demo build: items per array, characters per string,
 * values and characters in all. Past them the value may not match the schema, but it stays small.
 */
const MAX_ITEMS = 64;
const MAX_STRING = 4096;
const MAX_VALUES = 10_000;
const MAX_CHARACTERS = 65_536;

/** Strings by format, each one a value of that format. */
const FORMATTED: Readonly<Record<string, string>> = {
  'date-time': '2026-01-01T12:00:00Z',
  date: '2026-01-01',
  time: '12:00:00Z',
  email: 'demo@example.com',
  uri: 'https://example.com/demo',
  url: 'https://example.com/demo',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : {};

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The schema a local `$ref` (`#/$defs/x`, `#/definitions/x`, `#`) points at, or an empty one. */
function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#')) return {};
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = asSchema(node)[key];
  }
  return asSchema(node);
}

/** The schema's own members merged with those of its `allOf` parts, properties and `required` joined. */
function flattenAllOf(root: Schema, schema: Schema, depth: number): Schema {
  if (!Array.isArray(schema.allOf) || depth >= MAX_DEPTH) return schema;
  let merged: Schema = { ...schema, allOf: undefined };
  for (const part of schema.allOf) {
    const flat = flattenAllOf(root, derefOf(root, asSchema(part), depth + 1), depth + 1);
    merged = {
      ...flat,
      ...merged,
      properties: { ...asSchema(flat.properties), ...asSchema(merged.properties) },
      required: [
        ...(Array.isArray(flat.required) ? flat.required : []),
        ...(Array.isArray(merged.required) ? merged.required : []),
      ],
    };
  }
  return merged;
}

function derefOf(root: Schema, schema: Schema, depth: number): Schema {
  let current = schema;
  for (let hop = depth; typeof current.$ref === 'string' && hop < MAX_DEPTH; hop++) {
    current = { ...resolveRef(root, current.$ref), ...current, $ref: undefined };
  }
  return current;
}

function sampleString(
  schema: Schema,
  name: string | undefined,
  hints: Readonly<Record<string, unknown>>,
  budget: Budget,
) {
  const hinted = name === undefined ? undefined : hints[name];
  let text =
    typeof hinted === 'string'
      ? hinted
      : ((typeof schema.format === 'string' ? FORMATTED[schema.format] : undefined) ??
        (name === undefined ? 'demo' : `demo ${name}`));
  const min = Math.min(numberOf(schema.minLength) ?? 0, MAX_STRING, Math.max(0, budget.characters));
  const max = numberOf(schema.maxLength);
  if (text.length < min) text = text.padEnd(min, '.');
  if (max !== undefined && text.length > max) text = text.slice(0, max);
  budget.characters -= text.length;
  return text;
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  let value = 1;
  const min = numberOf(schema.minimum);
  const exclusiveMin = numberOf(schema.exclusiveMinimum);
  const max = numberOf(schema.maximum);
  const exclusiveMax = numberOf(schema.exclusiveMaximum);
  if (min !== undefined && value < min) value = integer ? Math.ceil(min) : min;
  if (exclusiveMin !== undefined && value <= exclusiveMin)
    value = integer ? Math.floor(exclusiveMin) + 1 : exclusiveMin + step;
  const multiple = numberOf(schema.multipleOf);
  if (multiple !== undefined && multiple > 0) value = Math.ceil(value / multiple) * multiple;
  if (max !== undefined && value > max) value = integer ? Math.floor(max) : max;
  if (exclusiveMax !== undefined && value >= exclusiveMax)
    value = integer ? Math.ceil(exclusiveMax) - 1 : exclusiveMax - step;
  return value;
}

/** What one sampling may still build: values and string characters left in its budget. */
interface Budget {
  left: number;
  characters: number;
}

function sampleAt(
  root: Schema,
  given: Schema,
  name: string | undefined,
  hints: Readonly<Record<string, unknown>>,
  depth: number,
  budget: Budget,
): unknown {
  if (--budget.left < 0) return null;
  const schema = flattenAllOf(root, derefOf(root, given, depth), depth);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const choice = Array.isArray(schema.anyOf)
    ? schema.anyOf[0]
    : Array.isArray(schema.oneOf)
      ? schema.oneOf[0]
      : undefined;
  if (choice !== undefined && depth < MAX_DEPTH) {
    const { anyOf: _any, oneOf: _one, ...rest } = schema;
    return sampleAt(root, { ...rest, ...asSchema(choice) }, name, hints, depth + 1, budget);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type =
    types.find((t) => t !== 'null' && typeof t === 'string') ??
    (schema.properties !== undefined ? 'object' : schema.items !== undefined ? 'array' : types[0]);
  switch (type) {
    case 'string':
      return sampleString(schema, name, hints, budget);
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      if (depth >= MAX_DEPTH) return [];
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const count = Math.min(Math.max(numberOf(schema.minItems) ?? 1, prefix.length), MAX_ITEMS);
      const bounded = Math.max(0, Math.min(count, numberOf(schema.maxItems) ?? count));
      return Array.from({ length: bounded }, (_, index) =>
        sampleAt(root, asSchema(prefix[index] ?? schema.items), name, hints, depth + 1, budget),
      );
    }
    case 'object':
    case undefined: {
      if (depth >= MAX_DEPTH) return {};
      const properties = asSchema(schema.properties);
      const required = Array.isArray(schema.required)
        ? schema.required.filter((k) => typeof k === 'string')
        : [];
      // Every declared property, so the answer looks complete, and any required one the schema does not describe.
      const keys = [...new Set([...Object.keys(properties), ...required])];
      return Object.fromEntries(
        keys.map((key) => [key, sampleAt(root, asSchema(properties[key]), key, hints, depth + 1, budget)]),
      );
    }
    default:
      return {};
  }
}

/**
 * A value `schema` accepts. `hints` gives strings by property name (the recorded tool call's `city`, say), used
 * where a string property of that name is asked for.
 */
export function sampleJson(schema: unknown, hints: Readonly<Record<string, unknown>> = {}): unknown {
  const root = asSchema(schema);
  return sampleAt(root, root, undefined, hints, 0, { left: MAX_VALUES, characters: MAX_CHARACTERS });
}
