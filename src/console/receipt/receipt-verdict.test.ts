import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sha256Hex } from '../../evidence/sha256.js';
import {
  type DroppedFile,
  evidenceEntries,
  matchEvidence,
  readReceipt,
  recheckReceipt,
} from './read-receipt.js';
import { receiptVerdict } from './receipt-verdict.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'evidence', 'mcp-2025-11-25');
const bytesOf = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));
const dropped = (name: string, bytes = bytesOf(name)): DroppedFile => ({
  name,
  bytes,
  sha256: sha256Hex(bytes),
});

function verdictWith(files: DroppedFile[], receiptBytes = bytesOf('receipt.json')) {
  const read = readReceipt(receiptBytes);
  if (!read.ok) throw new Error(read.message);
  const { matches } = matchEvidence(evidenceEntries(read.receipt), files);
  return receiptVerdict(read.receipt, read.problems, matches, recheckReceipt(read, matches));
}

const ALL = ['success.json', 'failure.json', 'tool-definition.json'];

describe('receiptVerdict', () => {
  test('says PASS as recorded before any evidence, and verified once every file gives the receipt again', () => {
    expect(verdictWith([])).toMatchObject({ word: 'PASS', verified: false });
    expect(verdictWith(ALL.map((n) => dropped(n)))).toMatchObject({ word: 'PASS', verified: true });
  });

  test('never says PASS over altered, missing or unsound evidence', () => {
    const changed = dropped('failure.json', new TextEncoder().encode('{"content": []}'));
    expect(verdictWith([dropped('success.json'), changed, dropped('tool-definition.json')])).toEqual({
      word: 'ALTERED',
      reason: 'failure.json differs from the receipt: not the file it describes.',
      verified: false,
    });
    expect(verdictWith([dropped('success.json')])).toMatchObject({
      word: 'INCOMPLETE',
      reason: 'failure.json and tool-definition.json were not added, so the receipt is not verified.',
    });
    const broken = JSON.parse(new TextDecoder().decode(bytesOf('receipt.json')));
    broken.details.cases[1].sha256 = 'ABC';
    const unsound = verdictWith([], new TextEncoder().encode(JSON.stringify(broken)));
    expect(unsound.word).toBe('FAIL');
    expect(unsound.reason).toMatch(/^The receipt itself is not sound: The failure case's sha256/);
  });
});
