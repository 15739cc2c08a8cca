import { describe, expect, test } from 'vitest';
import { checkDocument, checkLines, offsetOf } from './check-document.js';

const result = { contract: 'result', revision: '2025-11-25', toolDefinition: '' } as const;

describe('checkDocument', () => {
  test('places every contract violation at its member in the text', () => {
    const text =
      '{\n  "success": true,\n  "message": "  ",\n  "error_code": "ignored",\n  "details": null\n}\n';
    const check = checkDocument(text, text, result);
    if (check.read !== 'ok') throw new Error('read failed');
    expect(check.valid).toBe(false);
    const placed = check.violations.map((v) => [v.path, v.span.line, v.span.column, v.span.exact]);
    expect(placed).toEqual(
      expect.arrayContaining([
        ['/message', 3, 3, true],
        ['/error_code', 4, 3, true],
        ['/details', 5, 3, true],
      ]),
    );
  });

  test('marks a repeated member name where it repeats', () => {
    const text = '{"success": true, "message": "a", "details": {"x": 1, "x": 2}, "message": "b"}';
    const check = checkDocument(text, text, result);
    if (check.read !== 'ok') throw new Error('read failed');
    const repeats = check.violations.filter((v) => v.code === 'duplicate_member');
    expect(repeats.map((v) => text.slice(v.span.start, v.span.end))).toEqual(['"x": 2', '"message": "b"']);
  });

  test('gives a read error with its line, column and place in the text', () => {
    const text = '{\n  "success": true,\n  "message": "ok",,\n}';
    const check = checkDocument(text, text, result);
    expect(check).toMatchObject({ read: 'failed', error: { reason: 'syntax', line: 3, column: 19 } });
    if (check.read === 'failed') expect(text.slice(check.span?.start, check.span?.end)).toBe(',');
  });

  test('checks unified envelopes and MCP tool results, and refuses an unreadable tool definition', () => {
    const unified = checkDocument('{"success": true}', '{"success": true}', {
      ...result,
      contract: 'unified',
    });
    expect(unified).toMatchObject({ read: 'ok', valid: false });
    const mcp = { ...result, contract: 'mcp' as const };
    const text =
      '{"content": [], "structuredContent": {"success": false, "message": "No.", "error_code": "nope"}}';
    const check = checkDocument(text, text, mcp);
    expect(check.read === 'ok' && check.violations.map((v) => v.code)).toContain('is_error_mismatch');
    expect(checkDocument(text, text, { ...mcp, toolDefinition: '{' })).toMatchObject({
      read: 'tool-definition-failed',
      error: { reason: 'syntax' },
    });
  });
});

describe('checkLines', () => {
  test('counts the documents and lists each failing line, skipping blank lines', () => {
    const text = '{"success":true,"message":"ok"}\n\n{"success":false,"message":"No."}\r\n{oops\n';
    const check = checkLines(text, result);
    expect(check).toMatchObject({ documents: 3, conformant: 1, unreadable: 1 });
    expect(check.failures.map((f) => f.line)).toEqual([3, 4]);
  });

  test('reads the lines of a file as bytes, so a line that is not UTF-8 is unreadable', () => {
    const good = new TextEncoder().encode('{"success":true,"message":"ok"}\r\n');
    const bad = Uint8Array.from([
      ...new TextEncoder().encode('{"success":true,"message":"'),
      0xff,
      0x22,
      0x7d,
    ]);
    const bytes = Uint8Array.from([...good, ...bad, 0x0a]);
    const check = checkLines(new TextDecoder().decode(bytes), result, bytes);
    expect(check).toMatchObject({ documents: 2, conformant: 1, unreadable: 1 });
    expect(check.failures[0]).toMatchObject({
      line: 2,
      check: { read: 'failed', error: { reason: 'not_utf8' } },
    });
  });
});

describe('offsetOf', () => {
  test('finds a line and a column counted in code points after any line ending', () => {
    const text = 'ab\r\n😀c\rd\ne';
    expect(text.slice(offsetOf(text, 2, 2))).toBe('c\rd\ne');
    expect(text.slice(offsetOf(text, 3, 1))).toBe('d\ne');
    expect(text.slice(offsetOf(text, 4, 1))).toBe('e');
  });
});
