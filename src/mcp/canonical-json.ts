/**
 * Serializes a JSON value with object members in sorted order, so two values that are equal as JSON
 * (whatever their member order) give the same string.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  // JSON has no undefined; -0 and 0 are the same JSON number.
  return value === undefined ? 'null' : JSON.stringify(value);
}

/** True when two parsed JSON values are equal as JSON: member order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
