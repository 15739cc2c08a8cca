import { deepFreeze } from './deep-freeze.js';
import type { JsonSchema } from './schema.js';

/**
 * verdict's copy of the QZX Result Contract v1 JSON Schema (draft 2020-12), written from the published rules;
 * `schemas/result-contract-v1.schema.json` is the same document and a test keeps the two equal.
 */
export const RESULT_CONTRACT_SCHEMA: JsonSchema = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json',
  title: 'QZX Result Contract v1',
  description:
    'One JSON object per completed operation: a boolean success, a human message, error and/or error_code on failure, and additive evidence. Written by verdict from the published rules; unknown members are allowed everywhere.',
  type: 'object',
  required: ['success', 'message'],
  properties: {
    success: {
      description: 'True only when the requested operation completed successfully.',
      type: 'boolean',
    },
    message: {
      description: 'A complete human-readable summary of the outcome.',
      type: 'string',
      minLength: 1,
      pattern: '\\S',
    },
    error: {
      description: 'What went wrong, for people. Present on failure unless error_code is.',
      type: 'string',
      minLength: 1,
      pattern: '\\S',
    },
    error_code: {
      description: 'A stable machine-readable failure code. Present on failure unless error is.',
      type: 'string',
      pattern: '^[a-z][a-z0-9_]*$',
    },
    details: {
      description: 'Structured evidence about the outcome.',
      type: 'object',
    },
    warnings: {
      description: 'Remarks that do not change the outcome.',
      type: 'array',
      items: {
        type: 'string',
        minLength: 1,
        pattern: '\\S',
      },
    },
    meta: {
      description: 'Facts about the run that produced the result.',
      type: 'object',
      properties: {
        schema_version: {
          description: 'Version of the shared envelope.',
          const: 1,
        },
        command: {
          description: 'Name of the operation that produced the result.',
          type: 'string',
          minLength: 1,
          pattern: '\\S',
        },
        duration_ms: {
          description: 'Duration of the operation in milliseconds.',
          type: 'number',
          minimum: 0,
        },
        command_maturity: {
          description: 'Maturity facts about the command.',
          type: 'object',
        },
      },
    },
  },
  allOf: [
    {
      description: 'A failure carries error or error_code.',
      if: {
        properties: { success: { const: false } },
        required: ['success'],
      },
      then: {
        anyOf: [{ required: ['error'] }, { required: ['error_code'] }],
      },
    },
    {
      description: 'A success carries neither error nor error_code.',
      if: {
        properties: { success: { const: true } },
        required: ['success'],
      },
      then: {
        not: {
          anyOf: [{ required: ['error'] }, { required: ['error_code'] }],
        },
      },
    },
  ],
});
