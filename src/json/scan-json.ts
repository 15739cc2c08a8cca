import type { DuplicateMember } from './types.js';

/** Where and why a strict scan stopped; `offset` is in UTF-16 code units of the scanned text. */
export interface ScanError {
  /** Reason code, a subset of the read error reasons. */
  reason: 'syntax' | 'trailing_data' | 'too_deep';
  /** Index in the text where the problem is. */
  offset: number;
  /** One sentence saying what is wrong. */
  message: string;
}

/** What a strict scan found: the first error, if any, and every duplicated member name before it. */
export interface ScanOutcome {
  /** The first error in document order, or undefined when the text is one valid JSON value. */
  error: ScanError | undefined;
  /** Every object member name that repeats within its object, once per object and name. */
  duplicates: DuplicateMember[];
}

const ARRAY = 0;
const OBJECT = 1;

/**
 * Checks `text` from `start` against the JSON grammar (RFC 8259) without building values, tracking nesting
 * depth and duplicate member names. It loops over an explicit stack, so no nesting depth can overflow the
 * call stack; it is the slow, exact path behind `readJson`.
 */
export function scanJson(text: string, start: number, maxDepth: number): ScanOutcome {
  const n = text.length;
  const duplicates: DuplicateMember[] = [];
  const kinds: number[] = [];
  // Per open container: the member names seen, each flagged once reported (objects only), and the path
  // segment of its current child.
  const memberNames: (Map<string, boolean> | undefined)[] = [];
  const segments: (string | number)[] = [];
  let i = start;

  const fail = (reason: ScanError['reason'], offset: number, message: string): ScanOutcome => ({
    error: { reason, offset, message },
    duplicates,
  });
  const unexpected = (at: number, expected: string): ScanOutcome =>
    fail(
      'syntax',
      at,
      at >= n
        ? `Unexpected end of input; expected ${expected}.`
        : `Unexpected ${describe(text, at)}; expected ${expected}.`,
    );

  /** Reads a member name after optional whitespace, records it, and reads its colon; returns an error or undefined. */
  const readMemberName = (): ScanOutcome | undefined => {
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) !== 0x22) return unexpected(i, 'a member name in double quotes');
    const end = scanString(text, i);
    if (end < 0) return stringError(text, i, fail);
    const key = decodeString(text, i + 1, end - 1);
    const depth = kinds.length - 1;
    const seen = memberNames[depth] as Map<string, boolean>;
    const reported = seen.get(key);
    if (reported === undefined) seen.set(key, false);
    else if (!reported) {
      duplicates.push({ path: toJsonPointer(segments, depth), key });
      seen.set(key, true);
    }
    segments[depth] = key;
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== 0x3a) return unexpected(i, "':' after the member name");
    i++;
    return undefined;
  };

  for (;;) {
    // A value is expected at i.
    i = skipWhitespace(text, i);
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (kinds.length >= maxDepth) {
        return fail('too_deep', i, `Nesting exceeds the depth limit of ${maxDepth}.`);
      }
      i = skipWhitespace(text, i + 1);
      const depth = kinds.length;
      if (c === 0x7b) {
        kinds.push(OBJECT);
        memberNames.push(new Map());
        if (text.charCodeAt(i) === 0x7d) {
          i++;
          closeContainer();
        } else {
          const error = readMemberName();
          if (error) return error;
          continue;
        }
      } else {
        kinds.push(ARRAY);
        memberNames.push(undefined);
        if (text.charCodeAt(i) === 0x5d) {
          i++;
          closeContainer();
        } else {
          segments[depth] = 0;
          continue;
        }
      }
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
        return { error: undefined, duplicates };
      }
      const kind = kinds[depth];
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (kind === OBJECT) {
          const error = readMemberName();
          if (error) return error;
        } else {
          segments[depth] = (segments[depth] as number) + 1;
        }
        break;
      }
      if ((kind === OBJECT && d === 0x7d) || (kind === ARRAY && d === 0x5d)) {
        i++;
        closeContainer();
        continue;
      }
      return unexpected(i, kind === OBJECT ? "',' or '}'" : "',' or ']'");
    }
  }

  function closeContainer(): void {
    kinds.pop();
    memberNames.pop();
  }
}

/** Renders the first `depth` path segments as an RFC 6901 JSON Pointer. */
export function toJsonPointer(segments: readonly (string | number)[], depth: number): string {
  let pointer = '';
  for (let k = 0; k < depth; k++) {
    pointer += `/${String(segments[k]).replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  return pointer;
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
  fail: (reason: 'syntax', offset: number, message: string) => ScanOutcome,
): ScanOutcome {
  const at = -scanString(text, i) - 1;
  if (at >= text.length) return fail('syntax', at, 'Unexpected end of input inside a string.');
  const c = text.charCodeAt(at);
  if (c < 0x20) return fail('syntax', at, `Unescaped control character U+${hex4(c)} in a string.`);
  return fail('syntax', at, `Invalid escape sequence in a string at ${describe(text, at)}.`);
}

/** The value of a valid string literal's contents between `from` and `to` (exclusive). */
export function decodeString(text: string, from: number, to: number): string {
  const first = text.indexOf('\\', from);
  if (first < 0 || first >= to) return text.slice(from, to);
  let out = text.slice(from, first);
  let j = first;
  while (j < to) {
    const c = text.charCodeAt(j);
    if (c !== 0x5c) {
      out += text[j];
      j++;
      continue;
    }
    const e = text.charCodeAt(j + 1);
    if (e === 0x75) {
      out += String.fromCharCode(Number.parseInt(text.slice(j + 2, j + 6), 16));
      j += 6;
    } else {
      out += ESCAPES[e];
      j += 2;
    }
  }
  return out;
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
