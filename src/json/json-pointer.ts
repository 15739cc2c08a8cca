/**
 * JSON Pointers (RFC 6901), the one way verdict names where a value is: every finding, problem and duplicate
 * member carries one (docs/library.md, "Strict JSON reading").
 */

/** Escapes one reference token: `~` becomes `~0`, `/` becomes `~1`. */
export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Reads one escaped reference token back: `~1` becomes `/`, then `~0` becomes `~` (in that order, per RFC 6901). */
export function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The JSON Pointer of a path of member names and array indexes (`pointerOf('a', 0)` is `/a/0`). */
export function pointerOf(...tokens: readonly PropertyKey[]): string {
  let pointer = '';
  for (const token of tokens) pointer += `/${escapePointerToken(String(token))}`;
  return pointer;
}
