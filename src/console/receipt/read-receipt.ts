import { validateResult } from '../../contract/validate-result.js';
import { EVIDENCE_PROFILES, RECEIPT_SCHEMA_URL } from '../../evidence/codes.js';
import { createReceipt, type Receipt, serializeReceipt } from '../../evidence/create-receipt.js';
import { readJson } from '../../json/read-json.js';
import type { ReadError } from '../../json/types.js';

/** A receipt that was read, with whatever about it does not hold; or why it could not be read as one. */
export type ReceiptRead =
  | { ok: true; receipt: Receipt; text: string; problems: string[] }
  | { ok: false; message: string; readError?: ReadError };

const DIGEST = /^[0-9a-f]{64}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a Conformance Receipt v1 from the bytes of a file. It refuses what it cannot show (not JSON, not a
 * receipt, no two cases) and lists as problems what is shown but wrong: the receipt is not itself a conforming
 * result, or a digest is not 64 lowercase hex digits.
 */
export function readReceipt(bytes: Uint8Array): ReceiptRead {
  const read = readJson(bytes);
  if (!read.ok) return { ok: false, message: 'The file is not readable JSON.', readError: read.error };
  const value = read.value;
  if (!isObject(value))
    return { ok: false, message: 'A receipt is a JSON object; this file holds something else.' };
  if (value.receipt_schema !== RECEIPT_SCHEMA_URL) {
    return {
      ok: false,
      message: `This is not a Conformance Receipt v1: receipt_schema must be ${RECEIPT_SCHEMA_URL}.`,
    };
  }
  const details = value.details;
  const cases = isObject(details) ? details.cases : undefined;
  if (!isObject(details) || !Array.isArray(cases) || cases.length !== 2 || !cases.every(isObject)) {
    return { ok: false, message: 'The receipt has no details with exactly two cases (success and failure).' };
  }
  const problems: string[] = [];
  const report = validateResult(value, { duplicates: read.duplicates });
  for (const v of report.violations) {
    problems.push(`The receipt is not a conforming result: ${v.code} at ${v.path || '/'}: ${v.message}`);
  }
  if (!EVIDENCE_PROFILES.includes(details.profile as never)) {
    problems.push(`Unknown profile ${JSON.stringify(details.profile)}.`);
  }
  for (const [index, c] of cases.entries()) {
    const expected = index === 0 ? 'success' : 'failure';
    if (c.name !== expected) problems.push(`Case ${index + 1} must be named "${expected}".`);
    if (c.sha256 !== null && !(typeof c.sha256 === 'string' && DIGEST.test(c.sha256))) {
      problems.push(`The ${expected} case's sha256 is not 64 lowercase hex digits.`);
    }
    if (typeof c.file !== 'string') problems.push(`The ${expected} case names no file.`);
  }
  return { ok: true, receipt: value as unknown as Receipt, text: new TextDecoder().decode(bytes), problems };
}

/** A file the receipt names, with the digest it records. */
export interface EvidenceEntry {
  /** What the file is in the pair. */
  role: 'success' | 'failure' | 'tool definition';
  /** The path as the receipt gives it. */
  file: string;
  /** The recorded SHA-256, or null when the receipt records none. */
  sha256: string | null;
}

/** The files a receipt names: the success case, the failure case and the tool definition when there is one. */
export function evidenceEntries(receipt: Receipt): EvidenceEntry[] {
  const [success, failure] = receipt.details.cases;
  const entries: EvidenceEntry[] = [
    { role: 'success', file: success.file, sha256: success.sha256 },
    { role: 'failure', file: failure.file, sha256: failure.sha256 },
  ];
  const tool = receipt.details.tool_definition;
  if (tool !== null && typeof tool === 'object') {
    entries.push({ role: 'tool definition', file: tool.file, sha256: tool.sha256 });
  }
  return entries;
}

/** A file given to the Receipt view, with its SHA-256 computed in the browser. */
export interface DroppedFile {
  /** The file's name (no folder: browsers do not give one). */
  name: string;
  /** Its exact bytes. */
  bytes: Uint8Array;
  /** SHA-256 of the bytes, 64 lowercase hex digits. */
  sha256: string;
}

/** How one entry of the receipt compares with the files given. */
export interface EvidenceMatch {
  /** The receipt's entry. */
  entry: EvidenceEntry;
  /** The file compared with it: the one with the same name, else one with the recorded digest. */
  dropped?: DroppedFile;
  /** `match`: same digest; `mismatch`: the bytes differ; `missing`: no file given; `unrecorded`: no digest. */
  status: 'match' | 'mismatch' | 'missing' | 'unrecorded';
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * Compares the files given with the receipt's entries: a file goes with the entry of the same base name, or
 * failing that with the entry whose digest it has (a renamed copy). Files that fit no entry are returned too.
 */
export function matchEvidence(
  entries: readonly EvidenceEntry[],
  files: readonly DroppedFile[],
): { matches: EvidenceMatch[]; unmatched: DroppedFile[] } {
  const used = new Set<DroppedFile>();
  const matches = entries.map((entry): EvidenceMatch => {
    const dropped =
      files.find((f) => !used.has(f) && f.name === baseName(entry.file)) ??
      files.find((f) => !used.has(f) && entry.sha256 !== null && f.sha256 === entry.sha256);
    if (dropped === undefined) return { entry, status: 'missing' };
    used.add(dropped);
    if (entry.sha256 === null) return { entry, dropped, status: 'unrecorded' };
    return { entry, dropped, status: dropped.sha256 === entry.sha256 ? 'match' : 'mismatch' };
  });
  return { matches, unmatched: files.filter((f) => !used.has(f)) };
}

/** The receipt verdict computed again in the browser from the files given. */
export interface Recheck {
  /** The receipt created from the files given, under the receipt's profile and file names. */
  receipt: Receipt;
  /** True when it is byte for byte the receipt that was read. */
  identical: boolean;
}

/**
 * Creates the receipt again from the files matched to the success and failure cases (and the tool definition
 * when the receipt names one), with verdict's own `createReceipt`; null until those files are all given.
 */
export function recheckReceipt(
  read: { receipt: Receipt; text: string },
  matches: EvidenceMatch[],
): Recheck | null {
  const byRole = (role: EvidenceEntry['role']) => matches.find((m) => m.entry.role === role);
  const success = byRole('success');
  const failure = byRole('failure');
  const tool = byRole('tool definition');
  if (success?.dropped === undefined || failure?.dropped === undefined) return null;
  if (tool !== undefined && tool.dropped === undefined) return null;
  const receipt = createReceipt({
    profile: read.receipt.details.profile,
    success: { file: success.entry.file, bytes: success.dropped.bytes },
    failure: { file: failure.entry.file, bytes: failure.dropped.bytes },
    ...(tool?.dropped === undefined
      ? {}
      : { toolDefinition: { file: tool.entry.file, bytes: tool.dropped.bytes } }),
  });
  return { receipt, identical: serializeReceipt(receipt) === read.text };
}
