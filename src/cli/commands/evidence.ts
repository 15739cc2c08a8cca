import { isVerdictError } from '../../contract/errors.js';
import type { ResultContract } from '../../contract/types.js';
import {
  EVIDENCE_PROFILES,
  type EvidenceProfile,
  RECEIPT_ERROR_CODES,
  type ReceiptErrorCode,
} from '../../evidence/codes.js';
import { createReceipt, failReceipt, type Receipt } from '../../evidence/create-receipt.js';
import { readEvidenceFile } from '../../evidence/read-evidence-file.js';
import { writeReceipt } from '../../evidence/write-receipt.js';
import { defineCommand } from '../../producer/define-command.js';

/** Options of {@link produceReceipt}: the command line of `verdict evidence` as values. */
export interface ProduceReceiptOptions {
  /** The profile. */
  profile: EvidenceProfile;
  /** The success evidence file. */
  success: string;
  /** The failure evidence file. */
  failure: string;
  /** The tool definition file, when given. */
  toolDefinition?: string | undefined;
  /** Where to write the receipt, when given. */
  report?: string | undefined;
  /** Directory relative paths resolve against. */
  cwd: string;
}

/**
 * Reads an evidence pair, creates its receipt and writes it when a report path is given; a path conflict or a
 * failed write becomes the receipt's `error_code` instead of an exception. Shared by the CLI and the Action.
 */
export function produceReceipt(options: ProduceReceiptOptions): Receipt {
  const { cwd } = options;
  const inputs = [
    options.success,
    options.failure,
    ...(options.toolDefinition === undefined ? [] : [options.toolDefinition]),
  ];
  const receipt = createReceipt({
    profile: options.profile,
    success: readEvidenceFile(options.success, cwd),
    failure: readEvidenceFile(options.failure, cwd),
    toolDefinition:
      options.toolDefinition === undefined ? undefined : readEvidenceFile(options.toolDefinition, cwd),
  });
  if (options.report === undefined) return receipt;
  try {
    writeReceipt(options.report, receipt, { inputs, cwd });
    return receipt;
  } catch (error) {
    if (isVerdictError(error) && Object.hasOwn(RECEIPT_ERROR_CODES, error.code)) {
      return failReceipt(receipt, error.code as ReceiptErrorCode, error.message);
    }
    throw error;
  }
}

/** `verdict evidence`: checks a real success and a real failure as a pair and prints (and writes) the receipt. */
export const evidenceCommand = defineCommand({
  name: 'evidence',
  description:
    'Check a real success and a real failure as a pair under a profile and produce a deterministic Conformance Receipt v1 with SHA-256 digests of the exact files. With --report, the receipt is written atomically, never over an input; with --json it is printed byte for byte as written.',
  options: {
    profile: {
      type: 'string',
      description: 'The profile: the core contract or one MCP revision.',
      choices: EVIDENCE_PROFILES,
      default: 'core',
    },
    success: {
      type: 'string',
      description: 'File that must say success.',
      required: true,
      valueName: 'FILE',
    },
    failure: {
      type: 'string',
      description: 'File that must say failure.',
      required: true,
      valueName: 'FILE',
    },
    'tool-definition': {
      type: 'string',
      description: 'MCP tool definition (required by the MCP profiles, ignored by core).',
      valueName: 'FILE',
    },
    report: { type: 'string', description: 'Where to write the receipt.', valueName: 'FILE' },
  },
  errorCodes: { ...RECEIPT_ERROR_CODES, invalid_arguments: 'The command line is wrong.' },
  run({ options }, ctx) {
    return produceReceipt({
      profile: options.profile as EvidenceProfile,
      success: options.success,
      failure: options.failure,
      toolDefinition: options['tool-definition'],
      report: options.report,
      cwd: ctx.io.cwd,
    }) as unknown as ResultContract;
  },
  // SPEC §4: the --json output is the receipt itself, byte for byte the --report file (no meta, no timing).
  product: (result, { json }) => {
    if (!json || !Object.hasOwn(result, 'receipt_schema')) return undefined;
    const { meta: _meta, ...receipt } = result;
    return receipt;
  },
});
