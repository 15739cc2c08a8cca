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

const DIR = join(import.meta.dirname, '..', '..', '..', 'evidence', 'mcp-2025-11-25');
const bytesOf = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));
const dropped = (name: string, bytes = bytesOf(name)): DroppedFile => ({
  name,
  bytes,
  sha256: sha256Hex(bytes),
});

function receipt() {
  const read = readReceipt(bytesOf('receipt.json'));
  if (!read.ok) throw new Error(read.message);
  return read;
}

describe('readReceipt', () => {
  test('reads a receipt verdict evidence wrote, with no problems', () => {
    const read = receipt();
    expect(read.problems).toEqual([]);
    expect(evidenceEntries(read.receipt).map((e) => [e.role, e.file])).toEqual([
      ['success', 'success.json'],
      ['failure', 'failure.json'],
      ['tool definition', 'tool-definition.json'],
    ]);
  });

  test('refuses what it cannot show and lists what is wrong with what it shows', () => {
    expect(readReceipt(new TextEncoder().encode('{"a":'))).toMatchObject({
      ok: false,
      readError: { reason: 'syntax' },
    });
    expect(readReceipt(bytesOf('success.json'))).toMatchObject({
      ok: false,
      message: /not a Conformance Receipt v1/,
    });
    const text = new TextDecoder().decode(bytesOf('receipt.json'));
    const broken = JSON.parse(text);
    broken.message = '  ';
    broken.details.cases[0].sha256 = broken.details.cases[0].sha256.toUpperCase();
    const read = readReceipt(new TextEncoder().encode(JSON.stringify(broken)));
    expect(read.ok && read.problems).toEqual([
      expect.stringMatching(/^The receipt is not a conforming result: message_invalid at \/message/),
      "The success case's sha256 is not 64 lowercase hex digits.",
    ]);
    const cases = JSON.parse(text);
    cases.details.cases.pop();
    expect(readReceipt(new TextEncoder().encode(JSON.stringify(cases)))).toMatchObject({ ok: false });
  });
});

describe('matchEvidence', () => {
  test('matches by base name, then by digest, and reports differing, missing and unneeded files', () => {
    const entries = evidenceEntries(receipt().receipt);
    const changed = dropped('success.json', new TextEncoder().encode('{"success": true}'));
    const renamed = dropped('copy-of-failure.json', bytesOf('failure.json'));
    const extra = dropped('notes.json', new TextEncoder().encode('{}'));
    const { matches, unmatched } = matchEvidence(entries, [changed, renamed, extra]);
    expect(matches.map((m) => [m.entry.role, m.status, m.dropped?.name])).toEqual([
      ['success', 'mismatch', 'success.json'],
      ['failure', 'match', 'copy-of-failure.json'],
      ['tool definition', 'missing', undefined],
    ]);
    expect(unmatched).toEqual([extra]);
  });
});

describe('recheckReceipt', () => {
  test('gives exactly the receipt again from the same files, and a different one from altered files', () => {
    const read = receipt();
    const entries = evidenceEntries(read.receipt);
    const files = ['success.json', 'failure.json', 'tool-definition.json'].map((name) => dropped(name));
    expect(recheckReceipt(read, matchEvidence(entries, files.slice(0, 2)).matches)).toBeNull();
    expect(recheckReceipt(read, matchEvidence(entries, files).matches)?.identical).toBe(true);
    const altered = dropped(
      'failure.json',
      new TextEncoder().encode('{"content": [], "structuredContent": {}}'),
    );
    const recheck = recheckReceipt(read, matchEvidence(entries, [files[0]!, altered, files[2]!]).matches);
    expect(recheck).toMatchObject({ identical: false, receipt: { success: false } });
  });
});
