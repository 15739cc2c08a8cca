import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** verdict's unified output JSON Schema, compiled with Ajv's draft 2020-12 class. */
export const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'schemas', 'unified-output-v1.schema.json'), 'utf8'),
) as Record<string, unknown>;

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });

/** True when Ajv accepts the value against the schema. */
export const validateWithAjv = ajv.compile(schema);
