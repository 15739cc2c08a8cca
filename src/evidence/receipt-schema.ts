import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import { deepFreeze } from '../contract/deep-freeze.js';
import type { JsonSchema } from '../contract/schema.js';
import { MCP_REVISIONS, OUTPUT_SCHEMA_MODES } from '../mcp/codes.js';
import { EVIDENCE_PROFILES, RECEIPT_ERROR_CODES, RECEIPT_SCHEMA_URL } from './codes.js';

const nonBlank = { type: 'string', minLength: 1, pattern: '\\S' };
const findings = { type: 'array', items: nonBlank };
const digest = { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' };

const profileFacts = {
  description: 'The MCP profile facts of the case; empty for the core profile.',
  type: 'object',
  additionalProperties: false,
  properties: {
    mcp_specification: { enum: [...MCP_REVISIONS] },
    mcp_tools_spec: { type: 'string', pattern: '^https://modelcontextprotocol\\.io/specification/' },
    contract: { const: CONTRACT_SCHEMA_URL },
    output_schema_checked: { type: 'boolean' },
    output_schema_mode: { enum: [...OUTPUT_SCHEMA_MODES, null] },
    backcompat_text_matches: { type: 'boolean' },
    mcp_is_error_explicit: { type: ['boolean', 'null'] },
    mcp_is_error_effective: { type: 'boolean' },
  },
  dependentRequired: {
    mcp_specification: [
      'mcp_tools_spec',
      'contract',
      'output_schema_checked',
      'output_schema_mode',
      'backcompat_text_matches',
    ],
  },
};

function caseSchema(name: 'success' | 'failure'): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: [
      'name',
      'file',
      'sha256',
      'expected_success',
      'actual_success',
      'conformant',
      'violations',
      'warnings',
      'profile_facts',
    ],
    properties: {
      name: { const: name },
      file: { type: 'string', minLength: 1 },
      sha256: digest,
      expected_success: { const: name === 'success' },
      actual_success: { type: ['boolean', 'null'] },
      conformant: { type: 'boolean' },
      violations: findings,
      warnings: findings,
      profile_facts: { $ref: '#/$defs/profile_facts' },
    },
  };
}

/**
 * verdict's JSON Schema (draft 2020-12) of Conformance Receipt v1, written from docs/conformance.md;
 * `schemas/result-contract-conformance-receipt-v1.schema.json` holds the same document and a test keeps them equal.
 */
export const RECEIPT_SCHEMA: JsonSchema = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: RECEIPT_SCHEMA_URL,
  title: 'Conformance Receipt v1 (QZX Result Contract v1 compatible)',
  description:
    'The receipt of one evidence pair (a real success and a real failure) checked under a profile. A receipt is itself a result contract document; a schema-valid receipt may still say success: false.',
  type: 'object',
  additionalProperties: false,
  required: ['receipt_schema', 'success', 'message', 'warnings', 'details'],
  properties: {
    receipt_schema: { const: RECEIPT_SCHEMA_URL },
    success: { type: 'boolean' },
    message: nonBlank,
    error_code: { enum: Object.keys(RECEIPT_ERROR_CODES) },
    warnings: findings,
    details: {
      type: 'object',
      additionalProperties: false,
      required: [
        'report_schema_version',
        'contract_version',
        'contract_schema',
        'profile',
        'mcp_specification',
        'tool_definition',
        'violations',
        'cases',
      ],
      properties: {
        report_schema_version: { const: 1 },
        contract_version: { const: 'v1' },
        contract_schema: { const: CONTRACT_SCHEMA_URL },
        validation_materials: {
          description: "Pinned to the reference implementation's files; verdict omits it.",
          type: 'object',
        },
        profile: { enum: [...EVIDENCE_PROFILES] },
        mcp_specification: { enum: [...MCP_REVISIONS, null] },
        tool_definition: {
          oneOf: [
            { type: 'null' },
            {
              type: 'object',
              additionalProperties: false,
              required: ['file', 'sha256'],
              properties: { file: { type: 'string', minLength: 1 }, sha256: digest },
            },
          ],
        },
        violations: findings,
        cases: {
          type: 'array',
          prefixItems: [caseSchema('success'), caseSchema('failure')],
          minItems: 2,
          maxItems: 2,
        },
      },
    },
  },
  allOf: [
    {
      description: 'A failed receipt names its error_code; a successful one carries none.',
      if: { properties: { success: { const: false } } },
      then: { required: ['error_code'] },
      else: { not: { required: ['error_code'] } },
    },
  ],
  $defs: { profile_facts: profileFacts },
});
