import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readErrorFromThrown } from '../contract/findings.js';
import type { EvidenceFile } from './create-receipt.js';

/**
 * Reads one evidence file's exact bytes; a file that cannot be read becomes a read error
 * (`not_found` or `unreadable`) instead of an exception, so it shows up in the receipt.
 */
export function readEvidenceFile(file: string, cwd: string = process.cwd()): EvidenceFile {
  try {
    return { file, bytes: new Uint8Array(readFileSync(resolve(cwd, file))) };
  } catch (error) {
    return { file, error: readErrorFromThrown(error, JSON.stringify(file)) };
  }
}
