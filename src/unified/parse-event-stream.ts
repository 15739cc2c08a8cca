import { createEventStreamParser } from './create-event-stream-parser.js';

/** The outcome of {@link parseEventStream}: the events' JSON payloads in order, or the first one that is not JSON. */
export type EventStreamParse = { ok: true; events: unknown[] } | { ok: false; line: number; message: string };

/**
 * Read a captured stream into its JSON events: a raw SSE body (`event:`/`data:` lines, blank-line separated,
 * `data: [DONE]` dropped), one JSON event per line, or one JSON array of events (Gemini without `alt=sse`).
 * It is the incremental parser the gateway reads live streams with, fed the whole capture at once. Never throws.
 * @example parseEventStream('data: {"a":1}\n\ndata: [DONE]\n\n') // { ok: true, events: [{ a: 1 }] }
 */
export function parseEventStream(text: string | Uint8Array): EventStreamParse {
  const parser = createEventStreamParser();
  const head = parser.push(text);
  if (!head.ok) return head;
  const tail = parser.end();
  if (!tail.ok) return tail;
  return { ok: true, events: tail.events.length === 0 ? head.events : [...head.events, ...tail.events] };
}
