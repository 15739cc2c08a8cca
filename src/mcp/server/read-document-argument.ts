import { fail } from '../../contract/builders.js';
import type { JsonSchema } from '../../contract/schema.js';
import type { FailureResult } from '../../contract/types.js';
import { readJson } from '../../json/read-json.js';
import type { DuplicateMember, ReadWarning } from '../../json/types.js';

/** The input schema members of a tool that checks one document, given as a JSON value or as JSON text. */
export function documentArgumentSchema(what: string): { properties: JsonSchema; oneOf: JsonSchema[] } {
  return {
    properties: {
      document: { description: `${what}, as a JSON value.` },
      text: { type: 'string', description: `${what}, as JSON text (read strictly).` },
    },
    oneOf: [{ required: ['document'] }, { required: ['text'] }],
  };
}

/** The document of a `document` / `text` argument pair, or the failure to return when the text is unreadable. */
export type DocumentArgument =
  | { ok: true; value: unknown; duplicates: DuplicateMember[]; warnings: ReadWarning[] }
  | { ok: false; result: FailureResult };

/**
 * Reads the document a tool was given: `document` as is, `text` strictly (UTF-8, one value, duplicate members
 * and depth reported); unreadable text becomes an `invalid_json_input` failure with `details.read_error`.
 */
export function readDocumentArgument(args: Record<string, unknown>): DocumentArgument {
  if (typeof args.text !== 'string') return { ok: true, value: args.document, duplicates: [], warnings: [] };
  const read = readJson(args.text);
  if (read.ok) return read;
  return {
    ok: false,
    result: fail('The text could not be read as one strict JSON document.', {
      error: `${read.error.reason}: ${read.error.message}`,
      error_code: 'invalid_json_input',
      details: { read_error: read.error },
    }),
  };
}
