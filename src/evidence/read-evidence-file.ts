import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EvidenceFile } from './create-receipt.js';

/**
 * Reads one evidence file's exact bytes; a file that cannot be read becomes a read error
 * (`not_found` or `unreadable`) instead of an exception, so it shows up in the receipt.
 */
export function readEvidenceFile(file: string, cwd: string = process.cwd()): EvidenceFile {
  try {
    return { file, bytes: new Uint8Array(readFileSync(resolve(cwd, file))) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      file,
      error:
        code === 'ENOENT'
          ? { reason: 'not_found', message: `No file exists at ${JSON.stringify(file)}.` }
          : {
              reason: 'unreadable',
              message: `${JSON.stringify(file)} could not be read (${code ?? 'error'}).`,
            },
    };
  }
}
