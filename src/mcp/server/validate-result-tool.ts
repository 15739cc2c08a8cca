import { fail, ok } from '../../contract/builders.js';
import { CONTRACT_SCHEMA_URL } from '../../contract/codes.js';
import { formatFinding } from '../../contract/findings.js';
import type { ValidationReport } from '../../contract/validate-result.js';
import { validateResult } from '../../contract/validate-result.js';
import { documentArgumentSchema, readDocumentArgument } from './read-document-argument.js';
import type { ContractTool } from './register-contract-tool.js';

const VIOLATION_SCHEMA = {
  type: 'object',
  required: ['code', 'path', 'message'],
  properties: { code: { type: 'string' }, path: { type: 'string' }, message: { type: 'string' } },
};

/**
 * The `validate_result` tool: checks a JSON document (`document`) or JSON text read strictly (`text`) against
 * QZX Result Contract v1; the validation report is the result (`contract_violation` or `invalid_json_input`
 * when the input does not conform).
 */
export const validateResultTool: ContractTool = {
  name: 'validate_result',
  title: 'Validate a result contract document',
  description:
    'Check one document against QZX Result Contract v1. Give either `document` (a JSON value) or `text` (JSON text, read strictly: duplicate member names, invalid UTF-8 and trailing data are reported). Succeeds only when the document conforms; every violation is listed.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    ...documentArgumentSchema('The document to check'),
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    required: ['conformant', 'violations'],
    properties: {
      conformant: { type: 'boolean', description: 'True when the document conforms.' },
      violations: { type: 'array', items: VIOLATION_SCHEMA, description: 'Every violation found.' },
    },
  },
  run(args) {
    const read = readDocumentArgument(args);
    if (!read.ok) return read.result;
    const report = validateResult(read.value, { duplicates: read.duplicates, readWarnings: read.warnings });
    return reportResult(report, { contract: CONTRACT_SCHEMA_URL });
  },
};

/** The validation report as a contract result: conformant → success, else `contract_violation`. */
function reportResult(report: ValidationReport, details: Record<string, unknown>) {
  const violations = report.violations.map((v) => ({ code: v.code, path: v.path, message: v.message }));
  const warnings = report.warnings.map((w) => `${w.code}: ${w.message}`);
  const extra = warnings.length > 0 ? { warnings } : {};
  if (report.valid) {
    return ok('The document conforms to QZX Result Contract v1.', {
      conformant: true,
      violations,
      details,
      ...extra,
    });
  }
  const first = violations[0];
  return fail(
    `The document does not conform to QZX Result Contract v1 (${violations.length} violation${violations.length === 1 ? '' : 's'}).`,
    {
      error: first ? formatFinding(first) : 'The document does not conform.',
      error_code: 'contract_violation',
      conformant: false,
      violations,
      details,
      ...extra,
    },
  );
}
