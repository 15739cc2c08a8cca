/**
 * A JSON value as one text that does not depend on how it was written: object members sorted by name (UTF-16
 * code units, as `Array.prototype.sort` compares them), no whitespace between tokens. Two requests that differ
 * only in member order or formatting have the same text, so they have the same cache key.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>)
    // An absent member and one set to `undefined` are the same request.
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`);
  return `{${members.join(',')}}`;
}
