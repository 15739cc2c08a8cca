import type { Receipt } from '../../evidence/create-receipt.js';
import type { EvidenceMatch, Recheck } from './read-receipt.js';

/** The headline of the Receipt view: one word and the sentence that says why. */
export interface ReceiptVerdict {
  /**
   * `PASS`: the receipt passes and nothing the page checked contradicts it; `FAIL`: the receipt fails, or is
   * not itself sound; `ALTERED`: an evidence file or the receipt was changed; `INCOMPLETE`: some evidence was
   * added but not every file the receipt names.
   */
  word: 'PASS' | 'FAIL' | 'ALTERED' | 'INCOMPLETE';
  /** The finding behind the word, naming the files concerned. */
  reason: string;
  /** True only for a PASS whose every evidence file matched and gave exactly this receipt again. */
  verified: boolean;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function listOf(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The Receipt view's headline, computed from everything the page checked: the receipt's own verdict, the
 * problems found in the receipt itself, the digest of every evidence file added and, once every file is
 * there, the receipt created again from them (docs/console.md, "Receipt"). The worst finding wins, so a
 * passing receipt over altered evidence never reads as PASS.
 */
export function receiptVerdict(
  receipt: Receipt,
  problems: readonly string[],
  matches: readonly EvidenceMatch[],
  recheck: Recheck | null,
): ReceiptVerdict {
  const differing = matches.filter((m) => m.status === 'mismatch').map((m) => baseName(m.entry.file));
  if (differing.length > 0) {
    return {
      word: 'ALTERED',
      reason: `${listOf(differing)} ${differing.length === 1 ? 'differs' : 'differ'} from the receipt: not the file${differing.length === 1 ? '' : 's'} it describes.`,
      verified: false,
    };
  }
  if (problems.length > 0) {
    return {
      word: 'FAIL',
      reason: `The receipt itself is not sound: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''}`,
      verified: false,
    };
  }
  if (recheck !== null && !recheck.identical) {
    return {
      word: 'ALTERED',
      reason: `The evidence files match their digests but give a different receipt (${recheck.receipt.success ? 'PASS' : 'FAIL'}): the receipt was changed after it was written.`,
      verified: false,
    };
  }
  if (!receipt.success) return { word: 'FAIL', reason: receipt.message, verified: false };
  const unrecorded = matches.filter((m) => m.entry.sha256 === null).map((m) => baseName(m.entry.file));
  if (unrecorded.length > 0) {
    return {
      word: 'FAIL',
      reason: `The receipt records no digest for ${listOf(unrecorded)}, so it proves nothing about ${unrecorded.length === 1 ? 'it' : 'them'}.`,
      verified: false,
    };
  }
  const given = matches.filter((m) => m.dropped !== undefined).length;
  const missing = matches.filter((m) => m.dropped === undefined).map((m) => baseName(m.entry.file));
  if (given > 0 && missing.length > 0) {
    return {
      word: 'INCOMPLETE',
      reason: `${listOf(missing)} ${missing.length === 1 ? 'was' : 'were'} not added, so the receipt is not verified.`,
      verified: false,
    };
  }
  if (recheck?.identical === true) {
    return {
      word: 'PASS',
      reason: `${receipt.message} Verified in this page: every evidence file matches and gives exactly this receipt.`,
      verified: true,
    };
  }
  return {
    word: 'PASS',
    reason: `${receipt.message} As recorded: add the evidence files to verify their digests.`,
    verified: false,
  };
}
