import type { ReadJsonResult } from '../json/types.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads evidence bytes as one strict JSON document. The one place the evidence kit reaches the JSON reader,
 * so switching reader implementations is one edit. Interim reader: strict UTF-8, BOM warning, JSON.parse.
 */
export function readInput(bytes: Uint8Array): ReadJsonResult {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, error: { reason: 'not_utf8', message: 'The input is not valid UTF-8.' } };
  }
  const warnings: Extract<ReadJsonResult, { ok: true }>['warnings'] = [];
  if (text.startsWith('\uFEFF')) {
    text = text.slice(1);
    warnings.push({ code: 'utf8_bom', path: '', message: 'The input starts with a UTF-8 byte order mark.' });
  }
  if (text.trim() === '') return { ok: false, error: { reason: 'empty', message: 'The input is empty.' } };
  try {
    return { ok: true, value: JSON.parse(text), duplicates: [], warnings };
  } catch (error) {
    return {
      ok: false,
      error: { reason: 'syntax', message: `The input is not JSON: ${(error as Error).message}` },
    };
  }
}
