import type { EvidenceProfile } from './codes.js';
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
  /** The bytes of standard input, for the one input named `-` (the CLI reads them before). */
  stdin?: Uint8Array | undefined;
}

/**
 * Reads an evidence pair, creates its receipt and writes it when a report path is given; a path conflict or a
 * failed write becomes the receipt's `error_code`. Shared by the CLI and the Action.
 */
export function produceReceipt(options: ProduceReceiptOptions): Receipt {
  const { cwd, stdin } = options;
  const read = (file: string) =>
    file === '-' && stdin !== undefined ? { file, bytes: stdin } : readEvidenceFile(file, cwd);
  // Standard input is no file the report could overwrite.
  const inputs = [
    options.success,
    options.failure,
    ...(options.toolDefinition === undefined ? [] : [options.toolDefinition]),
  ].filter((file) => !(file === '-' && stdin !== undefined));
  const receipt = createReceipt({
    profile: options.profile,
    success: read(options.success),
    failure: read(options.failure),
    toolDefinition: options.toolDefinition === undefined ? undefined : read(options.toolDefinition),
    sha256: nodeSha256Hex,
  });
  if (options.report === undefined) return receipt;
  const written = writeReceipt(options.report, receipt, { inputs, cwd });
  return written.ok ? receipt : failReceipt(receipt, written.code, written.message);
}
