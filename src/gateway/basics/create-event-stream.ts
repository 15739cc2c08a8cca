/**
 * The body of a server-sent-events answer, written event by event (docs/gateway.md, "Streaming"). Events
 * written in one turn of the event loop (the deltas of one provider chunk) leave as one chunk of the body, so a
 * stream costs a write per provider chunk rather than one per event; the bytes are the same either way.
 */

/**
 * The events of a text stream as the pipeline writes them: `delta` (`{text}`), `tool_call_start` (`{id, name}`),
 * `tool_call_delta` (`{id, arguments}`), then one `envelope` (the built envelope, success or failure) last.
 */
export type TextStreamEvent = 'delta' | 'tool_call_start' | 'tool_call_delta' | 'envelope';

/** Writes the pipeline's stream events in a client's dialect; resolves when the client has taken them. */
export type TextStreamWrite = (event: TextStreamEvent, data: unknown) => Promise<void>;

/** A server-sent-events body and the means to write it. */
export interface EventStream {
  /** The answer's body. */
  readonly body: ReadableStream<Uint8Array>;
  /**
   * Writes one event, its data as JSON (one line, since JSON text has no raw line breaks). Resolves at once
   * while the client keeps up, else when it reads again; after the client went away it does nothing.
   */
  write(event: string, data: unknown): Promise<void>;
  /**
   * Writes one frame as it is (`data: [DONE]\n\n`, or an event without a name for a client that reads data
   * lines only), with the same back-pressure as `write`.
   */
  send(frame: string): Promise<void>;
  /** Sends what was written and ends the body. */
  close(): void;
}

/** The headers of a server-sent-events answer. */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'transfer-encoding': 'chunked',
};

/** A body for server-sent events; `onCancel` is called when the client stops reading (it went away). */
export function createEventStream(onCancel: (reason: unknown) => void): EventStream {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let pending = '';
  let flushing: ReturnType<typeof setImmediate> | undefined;
  let finished = false;
  let readAgain: (() => void) | undefined;
  const wake = () => {
    readAgain?.();
    readAgain = undefined;
  };
  const flush = () => {
    flushing = undefined;
    if (finished || pending === '') return;
    controller.enqueue(encoder.encode(pending));
    pending = '';
  };
  const body = new ReadableStream<Uint8Array>({
    start(opened) {
      controller = opened;
    },
    pull: wake,
    cancel(reason) {
      finished = true;
      pending = '';
      if (flushing !== undefined) clearImmediate(flushing);
      wake();
      onCancel(reason);
    },
  });
  const send = (frame: string): Promise<void> => {
    if (finished) return Promise.resolve();
    pending += frame;
    flushing ??= setImmediate(flush);
    if ((controller.desiredSize ?? 0) > 0) return Promise.resolve();
    // The client is behind: the writer waits until it reads, so a slow client holds at most one more chunk.
    return new Promise<void>((resolve) => {
      const before = readAgain;
      readAgain = () => {
        before?.();
        resolve();
      };
    });
  };
  return {
    body,
    write: (event, data) => send(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    send,
    close() {
      if (finished) return;
      if (flushing !== undefined) clearImmediate(flushing);
      flush();
      finished = true;
      controller.close();
    },
  };
}
