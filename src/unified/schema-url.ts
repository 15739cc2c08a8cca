/** The `$id` of verdict's JSON Schema for the unified output envelope (`schemas/unified-output-v1.schema.json`). */
export const UNIFIED_OUTPUT_SCHEMA_URL = 'https://verdict.dev/schemas/unified-output-v1.schema.json';
