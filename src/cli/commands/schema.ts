import { fail, ok } from '../../contract/builders.js';
import { RESULT_CONTRACT_SCHEMA } from '../../contract/contract-schema.js';
import type { JsonSchema } from '../../contract/schema.js';
import { RECEIPT_SCHEMA } from '../../evidence/receipt-schema.js';
import { defineCommand } from '../../producer/define-command.js';
import { UNIFIED_OUTPUT_SCHEMA } from '../../unified/index.js';

/** The schemas `verdict schema NAME` prints, by name. */
export const PUBLISHED_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  contract: RESULT_CONTRACT_SCHEMA,
  receipt: RECEIPT_SCHEMA,
  unified: UNIFIED_OUTPUT_SCHEMA,
};

/** `verdict schema NAME`: prints one of the JSON Schemas verdict publishes. */
export const schemaCommand = defineCommand({
  name: 'schema',
  description: `Print a JSON Schema that verdict publishes (draft 2020-12). NAME is one of: ${Object.keys(PUBLISHED_SCHEMAS).join(', ')}.`,
  options: {},
  positionals: [{ name: 'NAME', description: 'Which schema to print.', required: true }],
  errorCodes: { invalid_arguments: 'NAME is not a schema verdict publishes (a usage error, exit 2).' },
  run({ positionals }) {
    const name = positionals[0] as string;
    const schema = Object.hasOwn(PUBLISHED_SCHEMAS, name) ? PUBLISHED_SCHEMAS[name] : undefined;
    if (schema !== undefined) return ok(`The ${name} schema.`, { schema_name: name, schema });
    return fail(`There is no schema named ${JSON.stringify(name)}.`, {
      error: `Known schemas: ${Object.keys(PUBLISHED_SCHEMAS).join(', ')}.`,
      // A name outside the fixed list is a usage error, like a bad choice for an option.
      error_code: 'invalid_arguments',
    });
  },
  // The schema document itself is what this command produces: it is printed instead of the result, except
  // with --json, where stdout must hold one contract document (see docs/cli.md); that document carries the schema.
  product: (result, { json }) =>
    !json && result.success ? (result as { schema?: unknown }).schema : undefined,
});
