import { describe, expect, test } from 'vitest';
import { parseEventStream, readHeaderLines } from '../../src/unified/index.js';

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
