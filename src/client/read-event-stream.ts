/**
 * Server-sent events of a gateway stream, read from a `ReadableStream` of bytes: each event's name and data,
 * with a bound on how much one event may hold so that a broken stream cannot grow memory without end.
 */

/** One server-sent event. */
export interface ServerSentEvent {
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines, joined by newlines. */
  data: string;
}

/** Thrown when one event is larger than the bound. */
export class EventTooLargeError extends Error {
  override readonly name = 'EventTooLargeError';
}

function parseBlock(block: string): ServerSentEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n|\r/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { event, data: data.join('\n') };
}

/** The events of a byte stream; an event over `maxEventChars` characters throws {@link EventTooLargeError}. */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  maxEventChars: number,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const end = /\r?\n\r?\n|\r\r/.exec(buffer);
        if (end === null) break;
        const event = parseBlock(buffer.slice(0, end.index));
        buffer = buffer.slice(end.index + end[0].length);
        if (event !== undefined) yield event;
      }
      if (buffer.length > maxEventChars) {
        throw new EventTooLargeError(`A stream event is larger than ${maxEventChars} characters.`);
      }
      if (done) break;
    }
    const last = buffer.trim() === '' ? undefined : parseBlock(buffer);
    if (last !== undefined) yield last;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
