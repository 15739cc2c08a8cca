import { describe, expect, test } from 'vitest';
import { createEventStreamParser, parseEventStream, readHeaderLines } from '../../src/unified/index.js';

describe('parseEventStream', () => {
  test('reads SSE events with names, comments, CRLF and [DONE]', () => {
    const text =
      ': keep-alive\r\nevent: message_start\r\ndata: {"type":"message_start"}\r\n\r\nevent: ping\ndata: {"type":"ping"}\n\ndata: [DONE]\n\n';
    expect(parseEventStream(text)).toEqual({
      ok: true,
      events: [{ type: 'message_start' }, { type: 'ping' }],
    });
  });

  test('joins multi-line data fields and reads a last event without a blank line', () => {
    expect(parseEventStream('data: {"a":\ndata: 1}\n\ndata: {"b":2}')).toEqual({
      ok: true,
      events: [{ a: 1 }, { b: 2 }],
    });
  });

  test('reads one JSON event per line and a JSON array of events', () => {
    expect(parseEventStream('{"a":1}\n\n{"b":2}\n[DONE]\n')).toEqual({
      ok: true,
      events: [{ a: 1 }, { b: 2 }],
    });
    expect(parseEventStream('[{"a":1},\n{"b":2}]')).toEqual({ ok: true, events: [{ a: 1 }, { b: 2 }] });
  });

  test('reports the line of an event that is not JSON', () => {
    expect(parseEventStream('{"a":1}\nnot json\n')).toMatchObject({ ok: false, line: 2 });
    expect(parseEventStream('data: {"a":1}\n\ndata: {oops\n\n')).toMatchObject({ ok: false, line: 3 });
  });
});

describe('readHeaderLines', () => {
  test('reads Name: value lines, lowercasing names and trimming values', () => {
    expect(readHeaderLines(['X-Request-Id:  req_1 ', 'content-type: audio/mpeg', 'x-empty:'])).toEqual({
      ok: true,
      headers: [
        ['x-request-id', 'req_1'],
        ['content-type', 'audio/mpeg'],
        ['x-empty', ''],
      ],
    });
  });

  test('keeps colons inside the value', () => {
    expect(readHeaderLines(['traceparent: 00-a:b'])).toEqual({
      ok: true,
      headers: [['traceparent', '00-a:b']],
    });
  });

  test('rejects a line without a valid name', () => {
    expect(readHeaderLines(['no colon here'])).toMatchObject({ ok: false, line: 'no colon here' });
    expect(readHeaderLines(['bad name: x'])).toMatchObject({ ok: false });
  });
});

describe('createEventStreamParser', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  /** Feeds `pieces` in turn and gives every event the parser completed, in order. */
  function feed(pieces: readonly (string | Uint8Array)[]): unknown[] {
    const parser = createEventStreamParser();
    const events: unknown[] = [];
    for (const piece of pieces) {
      const step = parser.push(piece);
      if (!step.ok) throw new Error(step.message);
      events.push(...step.events);
    }
    const last = parser.end();
    if (!last.ok) throw new Error(last.message);
    return [...events, ...last.events];
  }

  test('gives each event as soon as its blank line arrives, not before', () => {
    const parser = createEventStreamParser();
    expect(parser.push('data: {"a"')).toEqual({ ok: true, events: [] });
    expect(parser.push(':1}\n')).toEqual({ ok: true, events: [] });
    expect(parser.push('\ndata: {"b":2}\n\n')).toEqual({ ok: true, events: [{ a: 1 }, { b: 2 }] });
    expect(parser.end()).toEqual({ ok: true, events: [] });
  });

  test('a CRLF split between two pieces ends one line, and a byte order mark is dropped', () => {
    expect(feed(['\uFEFFdata: {"a":1}\r', '\n\r', '\ndata: {"b":2}\r\n\r\n'])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  test('a character split between two byte pieces is read whole', () => {
    const bytes = encode('data: {"text":"çé😀"}\n\n');
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(feed([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([{ text: 'çé😀' }]);
    }
  });

  test('JSON lines and a JSON array are read in pieces too', () => {
    expect(feed(['{"a":', '1}\n{"b"', ':2}'])).toEqual([{ a: 1 }, { b: 2 }]);
    expect(feed(['[{"a":1},', '\n{"b":2}]'])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  test('mixed line endings are all read, and a text of millions of lines in one pass', () => {
    expect(feed(['data: {"a":1}\r\n\ndata: {"b":2}\r\rdata: {"c":3}\n\r\n'])).toEqual([
      { a: 1 },
      { b: 2 },
      { c: 3 },
    ]);
    // Two million blank lines and one CR at the end: searching the CR again from every line would take minutes.
    const blank = `${'\n'.repeat(2_000_000)}data: {"d":4}\r\r`;
    expect(feed([blank])).toEqual([{ d: 4 }]);
    expect(parseEventStream(blank)).toEqual({ ok: true, events: [{ d: 4 }] });
  }, 60_000);

  test('an event that is not JSON fails that step and every later one', () => {
    const parser = createEventStreamParser();
    expect(parser.push('data: {oops\n\n')).toMatchObject({ ok: false, line: 1 });
    expect(parser.push('data: {"a":1}\n\n')).toMatchObject({ ok: false, line: 1 });
    expect(parser.end()).toMatchObject({ ok: false });
  });
});
