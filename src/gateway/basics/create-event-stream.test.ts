import { describe, expect, test } from 'vitest';
import { createEventStream } from './create-event-stream.js';

const decoder = new TextDecoder();

describe('createEventStream', () => {
  test('events written in one turn leave as one chunk, in order, each as event and data lines', async () => {
    const events = createEventStream(() => undefined);
    const reader = events.body.getReader();
    await events.write('delta', { text: 'Hel' });
    await events.write('delta', { text: 'lo\n' });
    const first = await reader.read();
    await events.write('envelope', { success: true });
    events.close();
    const second = await reader.read();
    expect(decoder.decode(first.value)).toBe(
      'event: delta\ndata: {"text":"Hel"}\n\nevent: delta\ndata: {"text":"lo\\n"}\n\n',
    );
    expect(decoder.decode(second.value)).toBe('event: envelope\ndata: {"success":true}\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  test('a writer waits while the client does not read, and goes on once it has read what was queued', async () => {
    const events = createEventStream(() => undefined);
    const reader = events.body.getReader();
    await events.write('delta', { text: 'a' });
    // Let the first chunk reach the body's queue, which then holds as much as it may.
    await new Promise((resolve) => setImmediate(resolve));
    let resumed = false;
    const waiting = events.write('delta', { text: 'b' }).then(() => {
      resumed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(resumed).toBe(false);
    expect(decoder.decode((await reader.read()).value)).toContain('"a"');
    expect(decoder.decode((await reader.read()).value)).toContain('"b"');
    await waiting;
    expect(resumed).toBe(true);
  });

  test('a client that stops reading is reported once, and later writes do nothing', async () => {
    const reasons: unknown[] = [];
    const events = createEventStream((reason) => reasons.push(reason));
    await events.body.cancel('gone');
    await events.write('delta', { text: 'lost' });
    events.close();
    expect(reasons).toEqual(['gone']);
  });
});
