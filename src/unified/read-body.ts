import { readJson } from '../json/index.js';

/** The outcome of {@link readBody}: the parsed JSON value and whether a member name repeated, or why it is not JSON. */
export type BodyRead = { ok: true; value: unknown; duplicates: boolean } | { ok: false; message: string };

/**
 * Parse a JSON body (text or UTF-8 bytes) with verdict's strict reader; never throws.
 * The one place `verdict/unified` parses JSON: provider bodies tolerate repeated member names (the last one wins,
 * as in `JSON.parse`), envelopes read by `fromHttpResponse` do not.
 */
export function readBody(body: string | Uint8Array): BodyRead {
  const read = readJson(body);
  if (!read.ok) {
    const where =
      read.error.line === undefined ? '' : ` (line ${read.error.line}, column ${read.error.column ?? 1})`;
    return { ok: false, message: `The body is not JSON: ${read.error.message}${where}` };
  }
  return { ok: true, value: read.value, duplicates: read.duplicates.length > 0 };
}
