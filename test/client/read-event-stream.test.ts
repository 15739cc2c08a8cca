import { describe, expect, test } from 'vitest';
import { EventTooLargeError, readEventStream } from '../../src/client/read-event-stream.js';

/** A byte stream sending `chunks` one by one, as a network does when it splits an answer. */
function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function eventsOf(chunks: string[], limit = 1024) {
  const events = [];
  for await (const event of readEventStream(streamOf(chunks), limit)) events.push(event);
  return events;
}

describe('readEventStream', () => {
  test('reads events split anywhere, whatever the line endings, skipping comments', async () => {
    expect(
      await eventsOf([
        'event: delta\ndata: {"text":"Hel"}\n',
        '\n: a comment\r\nevent: delta\r\ndata: {"te',
        'xt":"lo"}\r\n\r\nevent: envelope\rdata: {}\r\r',
      ]),
    ).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
      { event: 'envelope', data: '{}' },
    ]);
  });

  test('joins several data lines, names unnamed events "message" and keeps a last event without its blank line', async () => {
    expect(await eventsOf(['data: a\ndata: b\n\n', 'event: envelope\ndata: {}'])).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'envelope', data: '{}' },
    ]);
  });

  test('a decoded character split between two chunks stays whole', async () => {
    const bytes = new TextEncoder().encode('data: °F\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 7));
        controller.enqueue(bytes.slice(7));
        controller.close();
      },
    });
    const events = [];
    for await (const event of readEventStream(stream, 1024)) events.push(event);
    expect(events).toEqual([{ event: 'message', data: '°F' }]);
  });

  test('an event over the bound throws EventTooLargeError', async () => {
    await expect(eventsOf([`data: ${'x'.repeat(100)}`], 50)).rejects.toBeInstanceOf(EventTooLargeError);
  });
});
