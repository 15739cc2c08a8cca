import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import { isJsonObject, validateResult } from '../contract/validate-result.js';
import { readJson } from '../json/read-json.js';
import type { DuplicateMember, ReadError } from '../json/types.js';
import type { McpRevision, McpWarning } from '../mcp/codes.js';
import { formatFinding } from '../mcp/format-finding.js';
import { type McpProfileFacts, validateMcpResult } from '../mcp/validate-mcp-result.js';
import { type EvidenceProfile, RECEIPT_SCHEMA_URL, type ReceiptErrorCode } from './codes.js';
import { sha256Hex } from './sha256.js';

/** One input file: its name as given and its exact bytes, or why it could not be read. */
export type EvidenceFile = { file: string; bytes: Uint8Array } | { file: string; error: ReadError };

/** The inputs of {@link createReceipt}. */
export interface ReceiptInput {
  /** The profile the pair is checked under. */
  profile: EvidenceProfile;
  /** The evidence that must say success. */
  success: EvidenceFile;
  /** The evidence that must say failure. */
  failure: EvidenceFile;
  /** The MCP tool definition; required by the MCP profiles, ignored (with a warning) by `core`. */
  toolDefinition?: EvidenceFile | undefined;
  /**
   * Computes the SHA-256 hex digest of a file's bytes; default {@link sha256Hex} (`@noble/hashes`, runs
   * anywhere). `verdict/evidence/node` passes Node's `node:crypto`.
   */
  sha256?: ((bytes: Uint8Array) => string) | undefined;
}

/** One evidence case of a receipt (SPEC §4): what was expected, what the file says, and every finding. */
export interface ReceiptCase {
  /** `success` or `failure`. */
  name: 'success' | 'failure';
  /** The path as given. */
  file: string;
  /** SHA-256 of the exact bytes (64 lowercase hex digits), or null when the file could not be read. */
  sha256: string | null;
  /** What the case must say. */
  expected_success: boolean;
  /** What the file says, or null when it says neither. */
  actual_success: boolean | null;
  /** True when the file passes the profile and says what it must. */
  conformant: boolean;
  /** Violations, each starting with its stable code. */
  violations: string[];
  /** Warnings, each starting with its stable code. */
  warnings: string[];
  /** `{}` for core, else the MCP profile facts of SPEC §3. */
  profile_facts: McpProfileFacts | Record<string, never>;
}

/** A Conformance Receipt v1: itself a conforming contract result, with closed objects in a stable order. */
export interface Receipt {
  /** The receipt schema URL. */
  receipt_schema: typeof RECEIPT_SCHEMA_URL;
  /** True when both cases conform and nothing else is wrong. */
  success: boolean;
  /** A sentence saying the verdict. */
  message: string;
  /** Present exactly when `success` is false. */
  error_code?: ReceiptErrorCode;
  /** Remarks about the pair as a whole. */
  warnings: string[];
  /** The evidence. */
  details: {
    /** Always 1. */
    report_schema_version: 1;
    /** Always `v1`. */
    contract_version: 'v1';
    /** The contract schema URL. */
    contract_schema: typeof CONTRACT_SCHEMA_URL;
    /** The profile used. */
    profile: EvidenceProfile;
    /** The MCP revision, or null for core. */
    mcp_specification: McpRevision | null;
    /** The tool definition file and its digest, or null when none was given. */
    tool_definition: { file: string; sha256: string | null } | null;
    /** Violations of the pair as a whole, each starting with its stable code. */
    violations: string[];
    /** Exactly two cases: success, then failure. */
    cases: [ReceiptCase, ReceiptCase];
  };
}

interface ReadDocument {
  sha256: string | null;
  value?: unknown;
  read: ReturnType<typeof readJson> | { ok: false; error: ReadError };
}

type Digest = (bytes: Uint8Array) => string;

function readEvidence(input: EvidenceFile, digest: Digest): ReadDocument {
  if ('error' in input) return { sha256: null, read: { ok: false, error: input.error } };
  const read = readJson(input.bytes);
  return { sha256: digest(input.bytes), read };
}

function readErrorFinding(error: ReadError): string {
  const where = error.line === undefined ? '' : ` (line ${error.line}, column ${error.column ?? 1})`;
  return formatFinding({
    code: 'invalid_json_input',
    path: '',
    message: `The file could not be read (${error.reason})${where}: ${error.message}`,
  });
}

function revisionOf(profile: EvidenceProfile): McpRevision | null {
  return profile === 'core' ? null : (profile.slice('mcp-'.length) as McpRevision);
}

function evaluateCase(
  name: 'success' | 'failure',
  input: EvidenceFile,
  revision: McpRevision | null,
  toolDefinition: { value: unknown; duplicates: readonly DuplicateMember[] } | null,
  digest: Digest,
): ReceiptCase {
  const expected = name === 'success';
  const document = readEvidence(input, digest);
  const base = { name, file: input.file, sha256: document.sha256, expected_success: expected };
  if (!document.read.ok) {
    return {
      ...base,
      actual_success: null,
      conformant: false,
      violations: [readErrorFinding(document.read.error)],
      warnings: [],
      profile_facts: {},
    };
  }
  const { value, duplicates, warnings: readWarnings } = document.read;
  let actual: boolean | null;
  let violations: { code: string; path: string; message: string }[];
  let warnings: McpWarning[];
  let facts: ReceiptCase['profile_facts'] = {};
  let successPath: string;
  if (revision === null) {
    const report = validateResult(value, { duplicates, readWarnings });
    const success = (value as { success?: unknown } | null)?.success;
    actual = typeof success === 'boolean' ? success : null;
    violations = report.violations;
    warnings = report.warnings;
    successPath = '/success';
  } else {
    const report = validateMcpResult(value, {
      revision,
      duplicates,
      readWarnings,
      ...(toolDefinition === null
        ? {}
        : { toolDefinition: toolDefinition.value, toolDefinitionDuplicates: toolDefinition.duplicates }),
    });
    actual = report.success;
    violations = report.violations;
    // The pair-level violation tool_definition_missing already says the schema was not checked.
    warnings = report.warnings.filter((w) => w.code !== 'tool_definition_not_checked');
    facts = report.facts;
    successPath =
      isJsonObject(value) && Object.hasOwn(value, 'result')
        ? '/result/structuredContent/success'
        : '/structuredContent/success';
  }
  const strings = violations.map(formatFinding);
  if (actual !== null && actual !== expected) {
    strings.push(
      formatFinding({
        code: 'role_mismatch',
        path: successPath,
        message: `The ${name} evidence must say success: ${expected}, but it says success: ${actual}.`,
      }),
    );
  }
  return {
    ...base,
    actual_success: actual,
    conformant: strings.length === 0 && actual === expected,
    violations: strings,
    warnings: warnings.map(formatFinding),
    profile_facts: facts,
  };
}

/**
 * Checks an evidence pair under a profile and creates its Conformance Receipt v1 (SPEC §4). Pure and
 * deterministic: the same bytes give the same receipt; bad evidence is reported in the receipt, never thrown.
 * @example
 * const receipt = createReceipt({ profile: 'core', success: { file: 's.json', bytes }, failure: { file: 'f.json', bytes: other } });
 * receipt.success // true when both files conform and say what they must
 */
export function createReceipt(input: ReceiptInput): Receipt {
  const revision = revisionOf(input.profile);
  const digest = input.sha256 ?? sha256Hex;
  const violations: string[] = [];
  const warnings: string[] = [];
  let toolDefinitionEntry: Receipt['details']['tool_definition'] = null;
  let toolDefinition: Parameters<typeof evaluateCase>[3] = null;

  if (input.toolDefinition !== undefined && revision === null) {
    toolDefinitionEntry = { file: input.toolDefinition.file, sha256: null };
    warnings.push(
      formatFinding({
        code: 'tool_definition_ignored',
        path: '',
        message: 'The core profile does not use a tool definition; it was ignored.',
      }),
    );
  } else if (input.toolDefinition !== undefined) {
    const read = readEvidence(input.toolDefinition, digest);
    toolDefinitionEntry = { file: input.toolDefinition.file, sha256: read.sha256 };
    if (read.read.ok) {
      toolDefinition = { value: read.read.value, duplicates: read.read.duplicates };
    } else {
      const { reason, message } = read.read.error;
      violations.push(
        formatFinding({
          code: 'tool_definition_unreadable',
          path: '',
          message: `The tool definition could not be read (${reason}): ${message}`,
        }),
      );
    }
  } else if (revision !== null) {
    violations.push(
      formatFinding({
        code: 'tool_definition_missing',
        path: '',
        message: `The ${input.profile} profile needs the tool definition (--tool-definition).`,
      }),
    );
  }

  const cases: [ReceiptCase, ReceiptCase] = [
    evaluateCase('success', input.success, revision, toolDefinition, digest),
    evaluateCase('failure', input.failure, revision, toolDefinition, digest),
  ];
  const conformant = violations.length === 0 && cases.every((c) => c.conformant);
  const failing = cases.filter((c) => !c.conformant).map((c) => c.name);
  const message = conformant
    ? `Conformant: the success and failure evidence conform to QZX Result Contract v1 under the ${input.profile} profile.`
    : `Not conformant under the ${input.profile} profile: ${[
        ...failing.map((name) => `the ${name} case fails`),
        ...(violations.length > 0 ? ['the pair has violations'] : []),
      ].join(', ')}.`;
  return assembleReceipt(conformant ? null : 'conformance_failed', message, warnings, {
    report_schema_version: 1,
    contract_version: 'v1',
    contract_schema: CONTRACT_SCHEMA_URL,
    profile: input.profile,
    mcp_specification: revision,
    tool_definition: toolDefinitionEntry,
    violations,
    cases,
  });
}

/** Builds a receipt object with its members in the order SPEC §4 gives. */
function assembleReceipt(
  errorCode: ReceiptErrorCode | null,
  message: string,
  warnings: string[],
  details: Receipt['details'],
): Receipt {
  return {
    receipt_schema: RECEIPT_SCHEMA_URL,
    success: errorCode === null,
    message,
    ...(errorCode === null ? {} : { error_code: errorCode }),
    warnings,
    details,
  };
}

/**
 * Marks a receipt as failed for a reason found after it was created (a path conflict, a failed write):
 * `success: false`, the given `error_code`, the message, and the reason added to `details.violations`.
 */
export function failReceipt(receipt: Receipt, code: ReceiptErrorCode, message: string): Receipt {
  return assembleReceipt(code, message, receipt.warnings, {
    ...receipt.details,
    violations: [...receipt.details.violations, formatFinding({ code, path: '', message })],
  });
}

/** Serializes a receipt deterministically: stable member order, 2-space indent, trailing newline. */
export function serializeReceipt(receipt: Receipt): string {
  return `${JSON.stringify(receipt, null, 2)}\n`;
}
