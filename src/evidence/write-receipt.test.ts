import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createReceipt, type Receipt, serializeReceipt } from './create-receipt.js';
import { readEvidenceFile } from './read-evidence-file.js';
import { writeReceipt } from './write-receipt.js';

let dir: string;
let receipt: Receipt;
const inputs = ['evidence/success.json', 'evidence/failure.json'];
const success = '{"success": true, "message": "Saved."}\n';
const failure = '{"success": false, "message": "Not saved.", "error_code": "disk_full"}\n';

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'verdict-receipt-')));
  mkdirSync(join(dir, 'evidence'));
  writeFileSync(join(dir, inputs[0]!), success);
  writeFileSync(join(dir, inputs[1]!), failure);
  receipt = createReceipt({
    profile: 'core',
    success: readEvidenceFile(inputs[0]!, dir),
    failure: readEvidenceFile(inputs[1]!, dir),
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The `code` of a refused write, or undefined when the receipt was written. */
function errorCodeOf(report: string, given: readonly string[] = inputs): string | undefined {
  const written = writeReceipt(report, receipt, { inputs: given, cwd: dir });
  return written.ok ? undefined : written.code;
}

/** Asserts that writing to `report` is refused as a conflict and that both inputs are untouched. */
function expectConflict(report: string) {
  const before = listing();
  expect(errorCodeOf(report)).toBe('receipt_path_conflict');
  expect(readFileSync(join(dir, inputs[0]!), 'utf8')).toBe(success);
  expect(readFileSync(join(dir, inputs[1]!), 'utf8')).toBe(failure);
  expect(listing()).toEqual(before);
}

function listing(): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('writeReceipt', () => {
  test('writes the serialized receipt and returns the same bytes', () => {
    const written = writeReceipt('evidence/receipt.json', receipt, { inputs, cwd: dir });
    expect(written).toEqual({ ok: true, text: serializeReceipt(receipt) });
    expect(readFileSync(join(dir, 'evidence/receipt.json'), 'utf8')).toBe(serializeReceipt(receipt));
  });

  test('replaces an earlier, longer receipt completely', () => {
    writeFileSync(join(dir, 'a.json'), `${serializeReceipt(receipt)}${' '.repeat(4096)}earlier tail\n`);
    expect(writeReceipt('a.json', receipt, { inputs, cwd: dir }).ok).toBe(true);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe(serializeReceipt(receipt));
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'evidence']);
  });

  test.each([
    ['the same path', 'evidence/failure.json'],
    ['a ./ form', './evidence/./failure.json'],
    ['an a/../ form', 'evidence/../evidence/failure.json'],
    ['a doubled slash', 'evidence//failure.json'],
  ])('refuses %s as receipt_path_conflict', (_name, report) => {
    expectConflict(report);
  });

  test('refuses the absolute form of a relative input', () => {
    expectConflict(join(dir, 'evidence/success.json'));
  });

  test('refuses a symlink to an input', () => {
    symlinkSync(join(dir, 'evidence/success.json'), join(dir, 'link.json'));
    expectConflict('link.json');
  });

  test('refuses a relative symlink to an input', () => {
    symlinkSync('evidence/success.json', join(dir, 'rel-link.json'));
    expectConflict('rel-link.json');
  });

  test('refuses a hard link to an input', () => {
    linkSync(join(dir, 'evidence/failure.json'), join(dir, 'hard.json'));
    expectConflict('hard.json');
  });

  test('refuses a path through a symlinked directory', () => {
    symlinkSync(join(dir, 'evidence'), join(dir, 'alias-dir'));
    expectConflict('alias-dir/success.json');
  });

  test('refuses a path through a symlinked directory onto an input that does not exist yet', () => {
    symlinkSync(join(dir, 'evidence'), join(dir, 'alias-dir'));
    const before = listing();
    const pending = ['evidence/success.json', 'evidence/tool.json'];
    // Neither path exists, so neither stat nor the plain paths can tell: only the real directory can.
    expect(errorCodeOf('alias-dir/tool.json', pending)).toBe('receipt_path_conflict');
    expect(listing()).toEqual(before);
  });

  test('refuses an input given through a symlink when the report is the real file', () => {
    symlinkSync(join(dir, 'evidence'), join(dir, 'alias-dir'));
    const aliased = ['alias-dir/success.json', 'evidence/failure.json'];
    expect(errorCodeOf('evidence/success.json', aliased)).toBe('receipt_path_conflict');
  });

  test('replaces a dangling symlink at the report path instead of following it', () => {
    symlinkSync(join(dir, 'nowhere/target.json'), join(dir, 'report.json'));
    writeReceipt('report.json', receipt, { inputs, cwd: dir });
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe(serializeReceipt(receipt));
    expect(readdirSync(dir)).not.toContain('nowhere');
  });

  test('handles a symlink loop at the report path without crashing', () => {
    symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
    symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
    writeReceipt('loop-a', receipt, { inputs, cwd: dir });
    expect(readFileSync(join(dir, 'loop-a'), 'utf8')).toBe(serializeReceipt(receipt));
  });

  test('reports receipt_write_failed for a directory, keeps the earlier receipt and leaves no temporary file', () => {
    mkdirSync(join(dir, 'reports'));
    writeFileSync(join(dir, 'reports/earlier.json'), 'earlier receipt\n');
    expect(errorCodeOf('reports')).toBe('receipt_write_failed');
    expect(readdirSync(join(dir, 'reports'))).toEqual(['earlier.json']);
    expect(readFileSync(join(dir, 'reports/earlier.json'), 'utf8')).toBe('earlier receipt\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('reports receipt_write_failed when the directory does not exist', () => {
    expect(errorCodeOf('missing/receipt.json')).toBe('receipt_write_failed');
    expect(readdirSync(dir).sort()).toEqual(['evidence']);
  });
});
