/** Where and why a strict scan stopped; `offset` is in UTF-16 code units of the scanned text. */
export interface ScanError {
  /** Reason code, a subset of the read error reasons. */
  reason: 'syntax' | 'trailing_data' | 'too_deep';
  /** Index in the text where the problem is. */
  offset: number;
  /** One sentence saying what is wrong. */
  message: string;
}

const ARRAY = 0;
const OBJECT = 1;

/**
 * Checks `text` from `start` against the JSON grammar (RFC 8259) and the depth limit without building values,
 * and returns the first error in document order, or undefined when the text is one valid JSON value. It
 * loops over an explicit stack, so no nesting depth can overflow the call stack, and it reads every character
 * a bounded number of times, so its time is linear in the text; `readJson` runs it to explain a text that
 * `JSON.parse` refused.
 */
export function scanJson(text: string, start: number, maxDepth: number): ScanError | undefined {
  const n = text.length;
  const kinds: number[] = [];
  let i = start;
  // True when a member name comes next (after `{` or a `,` in an object) rather than a value.
  let nameNext = false;

  const fail = (reason: ScanError['reason'], offset: number, message: string): ScanError => ({
    reason,
    offset,
    message,
  });
  const unexpected = (at: number, expected: string): ScanError =>
    fail(
      'syntax',
      at,
      at >= n
        ? `Unexpected end of input; expected ${expected}.`
        : `Unexpected ${describe(text, at)}; expected ${expected}.`,
    );

  for (;;) {
    i = skipWhitespace(text, i);
    if (nameNext) {
      nameNext = false;
      if (text.charCodeAt(i) !== 0x22) return unexpected(i, 'a member name in double quotes');
      const end = scanString(text, i);
      if (end < 0) return stringError(text, i, fail);
      i = skipWhitespace(text, end);
      if (text.charCodeAt(i) !== 0x3a) return unexpected(i, "':' after the member name");
      i = skipWhitespace(text, i + 1);
    }

    // A value is expected at i.
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (kinds.length >= maxDepth) {
        return fail('too_deep', i, `Nesting exceeds the depth limit of ${maxDepth}.`);
      }
      i = skipWhitespace(text, i + 1);
      if (c === 0x7b) {
        if (text.charCodeAt(i) !== 0x7d) {
          kinds.push(OBJECT);
          nameNext = true;
          continue;
        }
      } else if (text.charCodeAt(i) !== 0x5d) {
        kinds.push(ARRAY);
        continue;
      }
      i++;
    } else if (c === 0x22) {
      const end = scanString(text, i);
      if (end < 0) return stringError(text, i, fail);
      i = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const end = scanNumber(text, i);
      if (end < 0) return unexpected(-end - 1, 'a digit');
      i = end;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      for (let k = 1; k < word.length; k++) {
        if (text.charCodeAt(i + k) !== word.charCodeAt(k)) return unexpected(i + k, `'${word}'`);
      }
      i += word.length;
    } else {
      return unexpected(i, 'a JSON value');
    }

    // A value ended at i: continue or close the enclosing containers.
    for (;;) {
      i = skipWhitespace(text, i);
      const depth = kinds.length - 1;
      if (depth < 0) {
        if (i < n) return fail('trailing_data', i, `Unexpected ${describe(text, i)} after the JSON value.`);
        return undefined;
      }
      const kind = kinds[depth];
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (kind === OBJECT) nameNext = true;
        break;
      }
      if ((kind === OBJECT && d === 0x7d) || (kind === ARRAY && d === 0x5d)) {
        i++;
        kinds.pop();
        continue;
      }
      return unexpected(i, kind === OBJECT ? "',' or '}'" : "',' or ']'");
    }
  }
}

/** Index after JSON whitespace (space, tab, line feed, carriage return) starting at `i`. */
export function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

const ESCAPES: Record<number, string> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
};

/** Index after the closing quote of the string literal opening at `i`, or `-(bad index) - 1`. */
export function scanString(text: string, i: number): number {
  const n = text.length;
  for (let j = i + 1; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) return -j - 1;
    if (c === 0x5c) {
      const e = text.charCodeAt(j + 1);
      if (e === 0x75) {
        for (let k = 2; k < 6; k++) {
          if (!isHexDigit(text.charCodeAt(j + k))) return -(j + k) - 1;
        }
        j += 5;
      } else if (ESCAPES[e] !== undefined) j++;
      else return -(j + 1) - 1;
    }
  }
  return -n - 1;
}

/** Turns a failed `scanString` into the syntax error at the character that broke the literal. */
function stringError(
  text: string,
  i: number,
  fail: (reason: 'syntax', offset: number, message: string) => ScanError,
): ScanError {
  const at = -scanString(text, i) - 1;
  if (at >= text.length) return fail('syntax', at, 'Unexpected end of input inside a string.');
  const c = text.charCodeAt(at);
  if (c < 0x20) return fail('syntax', at, `Unescaped control character U+${hex4(c)} in a string.`);
  return fail('syntax', at, `Invalid escape sequence in a string at ${describe(text, at)}.`);
}

/**
 * The value of a valid string literal's contents between `from` and `to` (exclusive). It looks for escapes
 * within those bounds only and copies the runs between them as slices, so decoding costs the literal's own
 * length, never the length of the text after it.
 */
export function decodeString(text: string, from: number, to: number): string {
  let j = from;
  while (j < to && text.charCodeAt(j) !== 0x5c) j++;
  if (j === to) return text.slice(from, to);
  let out = '';
  let run = from;
  while (j < to) {
    if (text.charCodeAt(j) !== 0x5c) {
      j++;
      continue;
    }
    out += text.slice(run, j);
    const e = text.charCodeAt(j + 1);
    if (e === 0x75) {
      out += String.fromCharCode(hexValue(text, j + 2));
      j += 6;
    } else {
      out += ESCAPES[e];
      j += 2;
    }
    run = j;
  }
  return out + text.slice(run, to);
}

/** The value of the four hexadecimal digits at `i`, which a successful `scanString` has already checked. */
function hexValue(text: string, i: number): number {
  let value = 0;
  for (let k = i; k < i + 4; k++) {
    const c = text.charCodeAt(k);
    value = value * 16 + (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
  }
  return value;
}

/** Index after the number literal at `i`, or `-(bad index) - 1` for a malformed number. */
function scanNumber(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 0x2d) j++;
  const first = text.charCodeAt(j);
  if (first === 0x30) {
    j++;
    // A leading zero followed by a digit is a syntax error, not "0" plus trailing data.
    if (isDigit(text.charCodeAt(j))) return -j - 1;
  } else if (isDigit(first)) {
    while (isDigit(text.charCodeAt(j))) j++;
  } else return -j - 1;
  if (text.charCodeAt(j) === 0x2e) {
    j++;
    if (!isDigit(text.charCodeAt(j))) return -j - 1;
    while (isDigit(text.charCodeAt(j))) j++;
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    j++;
    const sign = text.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (!isDigit(text.charCodeAt(j))) return -j - 1;
    while (isDigit(text.charCodeAt(j))) j++;
  }
  return j;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}

/** Names the character at `i` for a message, escaping invisible ones. */
function describe(text: string, i: number): string {
  const c = text.codePointAt(i) as number;
  if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f) || c === 0xfeff || (c >= 0xd800 && c <= 0xdfff)) {
    return `character U+${hex4(c)}`;
  }
  return `character '${String.fromCodePoint(c)}'`;
}
