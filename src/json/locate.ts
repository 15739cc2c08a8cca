/** A 1-based line and column, the column counted in Unicode code points. */
export interface TextPosition {
  /** 1-based line number. */
  line: number;
  /** 1-based column, in code points. */
  column: number;
}

/**
 * Finds the line and column of `offset` in `text`, where lines end at LF, CRLF or a lone CR and counting
 * starts at `start` (after a byte order mark).
 */
export function locate(text: string, offset: number, start: number): TextPosition {
  let line = 1;
  let lineStart = start;
  for (let i = start; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < offset; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < offset) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    column++;
  }
  return { line, column };
}
