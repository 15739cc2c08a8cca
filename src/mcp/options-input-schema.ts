import type { JsonSchema } from '../contract/schema.js';
import type { OptionSpec, OptionSpecs } from '../producer/option-specs.js';

function valueSchema(spec: OptionSpec): JsonSchema {
  const schema: JsonSchema = { type: spec.type };
  if (spec.choices !== undefined) schema.enum = [...spec.choices];
  if (spec.min !== undefined) schema.minimum = spec.min;
  if (spec.max !== undefined) schema.maximum = spec.max;
  return schema;
}

/**
 * The MCP `inputSchema` of a command's options: one property per option (named as on the command line,
 * without `--`), typed and constrained as the option is, `required` for required options, and no other members.
 * @example
 * optionsInputSchema({ path: { type: 'string', description: 'File to read.', required: true } })
 * // { type: 'object', properties: { path: { type: 'string', description: 'File to read.' } },
 * //   required: ['path'], additionalProperties: false }
 */
export function optionsInputSchema(options: OptionSpecs): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(options)) {
    const value = valueSchema(spec);
    const property: JsonSchema = spec.multiple
      ? { type: 'array', description: spec.description, items: value }
      : { ...value, description: spec.description };
    if (spec.default !== undefined && !spec.multiple) property.default = spec.default;
    properties[name] = property;
    if (spec.required) required.push(name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

/**
 * Turns tool arguments that passed {@link optionsInputSchema} into the options a command's `run` expects:
 * defaults filled in, a repeatable option that was not given becomes `[]`.
 */
export function argumentsToOptions(
  options: OptionSpecs,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(options)) {
    if (Object.hasOwn(args, name)) parsed[name] = args[name];
    else if (spec.multiple) parsed[name] = [];
    else if (spec.default !== undefined) parsed[name] = spec.default;
  }
  return parsed;
}
