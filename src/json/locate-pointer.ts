import { locate, type TextPosition } from './locate.js';
import { scanString, skipWhitespace } from './scan-json.js';

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Index after the JSON value starting at `i` (after whitespace) of a text already known to be valid JSON. */
function skipValue(text: string, i: number): number {
  let depth = 0;
  for (;;) {
    i = skipWhitespace(text, i);
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = scanString(text, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      i++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      i++;
    } else if (c === COMMA || c === COLON) {
      i++;
      continue;
    } else {
      // A number or a literal runs to the next delimiter.
      while (i < text.length && !/[\s,:\]}]/.test(text.charAt(i))) i++;
    }
    if (depth <= 0 || i < 0 || i >= text.length) return i;
  }
}

/** The member-name offset and the value offset of member `name` of the object opening at `i`, if it has one. */
function findMember(text: string, i: number, name: string): { key: number; value: number } | undefined {
  let found: { key: number; value: number } | undefined;
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) === QUOTE) {
    const end = scanString(text, i);
    if (end < 0) return found;
    const key = JSON.parse(text.slice(i, end)) as string;
    const value = skipWhitespace(text, skipWhitespace(text, end) + 1);
    // With a repeated name the last one is the value a parser keeps, so it is the one pointed at.
    if (key === name) found = { key: i, value };
    i = skipWhitespace(text, skipValue(text, value));
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipWhitespace(text, i + 1);
  }
  return found;
}

/** The offset of element `index` of the array opening at `i`, if it has that many. */
function findElement(text: string, i: number, index: number): number | undefined {
  i = skipWhitespace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_ARRAY) return undefined;
  for (let k = 0; k < index; k++) {
    i = skipWhitespace(text, skipValue(text, i));
    if (text.charCodeAt(i) !== COMMA) return undefined;
    i = skipWhitespace(text, i + 1);
  }
  return i;
}

/**
 * Finds where the value an RFC 6901 JSON Pointer names lies in a valid JSON text: the member name for an
 * object member, the value itself for an array element or the root. When the pointer names something the
 * document does not have (a missing member), the position is that of the nearest enclosing value that exists.
 * @example
 * locatePointer('{\n  "message": 1\n}', '/message') // { line: 2, column: 3 }
 */
export function locatePointer(text: string, pointer: string): TextPosition {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let value = skipWhitespace(text, start);
  let at = value;
  const segments =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  for (const segment of segments) {
    const c = text.charCodeAt(value);
    if (c === OPEN_OBJECT) {
      const member = findMember(text, value, segment);
      if (member === undefined) break;
      at = member.key;
      value = member.value;
    } else if (c === OPEN_ARRAY && /^(?:0|[1-9][0-9]*)$/.test(segment)) {
      const element = findElement(text, value, Number(segment));
      if (element === undefined) break;
      at = element;
      value = element;
    } else break;
  }
  return locate(text, at, start);
}
