/** Headers as verdict accepts them: a Web `Headers`, a plain record (Node style) or name/value pairs. */
export type HeadersLike =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | Iterable<readonly [string, string]>;

/** The value of one header, matched case-insensitively; several values are joined with `, `. */
export function headerValue(headers: HeadersLike | undefined, name: string): string | undefined {
  // Plain JavaScript callers pass `null` or other non-objects too; normalizing must not throw on them.
  if (typeof headers !== 'object' || headers === null) return undefined;
  const wanted = name.toLowerCase();
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(wanted) ?? undefined;
  const found: string[] = [];
  const entries: Iterable<readonly [string, unknown]> =
    Symbol.iterator in headers ? (headers as Iterable<readonly [string, string]>) : Object.entries(headers);
  for (const [key, value] of entries) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (Array.isArray(value)) found.push(...value.map(String));
    else found.push(String(value));
  }
  return found.length === 0 ? undefined : found.join(', ');
}
