import { isVerdictError } from '../contract/errors.js';
import { type EvidenceProfile, RECEIPT_ERROR_CODES, type ReceiptErrorCode } from './codes.js';
import { createReceipt, failReceipt, type Receipt } from './create-receipt.js';
import { nodeSha256Hex } from './node-sha256-hex.js';
import { readEvidenceFile } from './read-evidence-file.js';
import { writeReceipt } from './write-receipt.js';

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
    sha256: nodeSha256Hex,
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
