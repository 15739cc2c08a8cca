/** The outcome of {@link readBody}: the parsed JSON value, or why the text is not JSON. */
export type BodyRead = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Parse a JSON body (text or UTF-8 bytes); never throws.
 * The one place that parses JSON in `verdict/unified`, so switching to the strict reader is one edit.
 */
export function readBody(body: string | Uint8Array): BodyRead {
  let text: string;
  try {
    text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { ok: false, message: 'The body is not valid UTF-8.' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `The body is not JSON: ${(error as Error).message}` };
  }
}
