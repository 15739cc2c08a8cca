/**
 * The bounds a provider answer is read within (see docs/unified.md, "Bounds"): a reader that holds to them
 * needs memory proportional to the bounds, never to what a faulty or hostile provider sends.
 */
export interface StreamLimits {
  /** Largest non-streamed body, in bytes. */
  maxBodyBytes: number;
  /** Largest whole stream, in bytes. */
  maxStreamBytes: number;
  /** Largest line of a text stream and largest event (an SSE event's lines, an AWS event-stream message), in bytes. */
  maxEventBytes: number;
  /** Most events in one stream (SSE events, JSON lines or AWS event-stream messages). */
  maxEvents: number;
}

/** The default bounds: room for the largest real answers (inline images, long reasoning streams), no more. */
export const STREAM_LIMITS: Readonly<StreamLimits> = Object.freeze({
  maxBodyBytes: 64 * 1024 * 1024,
  maxStreamBytes: 64 * 1024 * 1024,
  maxEventBytes: 16 * 1024 * 1024,
  maxEvents: 1_000_000,
});

/** The name of one bound as failures report it (`details.limit`), snake_case like every envelope member. */
export type StreamLimitName = 'max_body_bytes' | 'max_stream_bytes' | 'max_event_bytes' | 'max_events';

/** Which bound an answer passed, its value, and a sentence saying so. */
export interface StreamLimitExceeded {
  /** The bound that was passed. */
  limit: StreamLimitName;
  /** Its value: bytes, or events for `max_events`. */
  value: number;
  /** One sentence for people. */
  message: string;
}

/** Counts a stream's bytes, lines and events as its chunks arrive, and says when one passes its bound. */
export interface StreamMeter {
  /** Takes the next chunk; returns the bound it passed, if any (then the stream should be dropped). */
  push(chunk: Uint8Array): StreamLimitExceeded | undefined;
  /** Ends the stream; returns the bound passed by its last event, if any. */
  end(): StreamLimitExceeded | undefined;
}

const LF = 0x0a;
const CR = 0x0d;

/** Text framing: not yet known, SSE (`data:` lines, events end at a blank line), or one JSON event per line. */
const UNKNOWN = 0;
const SSE = 1;
const LINES = 2;
/** The AWS event-stream framing: length-prefixed binary messages. */
const BINARY = 3;

/**
 * A meter for one stream. `binary` says whether the stream may be in the AWS event-stream framing (Bedrock's
 * ConverseStream); it is taken to be when its first byte cannot start a text stream. A JSON array of events
 * (Gemini without `alt=sse`) is one text whose lines are measured; its elements count toward no event bound.
 */
export function createStreamMeter(limits: StreamLimits, binary = false): StreamMeter {
  let total = 0;
  let mode = UNKNOWN;
  let lineBytes = 0;
  let eventBytes = 0;
  let events = 0;
  // The first bytes of the current line, enough to tell an SSE field (`event:`) from JSON.
  let lineHead = '';
  let afterCr = false;
  // The AWS framing: bytes left in the current message, and the length prefix read so far.
  let messageLeft = 0;
  const prefix: number[] = [];

  const exceeded = (limit: StreamLimitName, value: number, what: string): StreamLimitExceeded => ({
    limit,
    value,
    message: `The stream has ${what} (${limit.replaceAll('_', '-')} ${value}).`,
  });
  const countEvent = (): StreamLimitExceeded | undefined => {
    events++;
    return events > limits.maxEvents
      ? exceeded('max_events', limits.maxEvents, `more than ${limits.maxEvents} events`)
      : undefined;
  };
  const tooLongEvent = () =>
    exceeded(
      'max_event_bytes',
      limits.maxEventBytes,
      mode === BINARY
        ? `a message longer than ${limits.maxEventBytes} bytes`
        : `a line or event longer than ${limits.maxEventBytes} bytes`,
    );

  /** Ends the current text line; a blank one ends an SSE event. */
  const endLine = (): StreamLimitExceeded | undefined => {
    // A blank line, or one of a few spaces (between JSON events); a longer one counts as an event, at worst.
    const blank = lineBytes === lineHead.length && lineHead.trim() === '';
    if (mode === UNKNOWN && !blank) mode = /^(data|event|id|retry)?:/.test(lineHead) ? SSE : LINES;
    let passed: StreamLimitExceeded | undefined;
    if (mode === SSE) {
      if (lineBytes === 0) {
        if (eventBytes > 0) passed = countEvent();
        eventBytes = 0;
        // A comment line (`: keep-alive`) is no part of an event; it is bounded as a line.
      } else if (!lineHead.startsWith(':')) eventBytes += lineBytes + 1;
    } else if (mode === LINES && !blank) passed = countEvent();
    lineBytes = 0;
    lineHead = '';
    return passed;
  };

  const pushText = (chunk: Uint8Array): StreamLimitExceeded | undefined => {
    let start = 0;
    // CRLF is one line end, even when a chunk ends between the two.
    if (afterCr && chunk[0] === LF) start = 1;
    for (let k = start; k < chunk.length; k++) {
      const byte = chunk[k] as number;
      if (byte !== LF && byte !== CR) continue;
      const passed = addToLine(chunk, start, k) ?? endLine();
      if (passed) return passed;
      if (byte === CR && chunk[k + 1] === LF) k++;
      start = k + 1;
    }
    afterCr = chunk[chunk.length - 1] === CR;
    return addToLine(chunk, start, chunk.length);
  };
  const addToLine = (chunk: Uint8Array, from: number, to: number): StreamLimitExceeded | undefined => {
    if (to === from) return undefined;
    if (lineHead.length < 8) {
      for (let k = from; k < to && lineHead.length < 8; k++)
        lineHead += String.fromCharCode(chunk[k] as number);
    }
    lineBytes += to - from;
    return lineBytes > limits.maxEventBytes || eventBytes + lineBytes > limits.maxEventBytes
      ? tooLongEvent()
      : undefined;
  };

  const pushBinary = (chunk: Uint8Array): StreamLimitExceeded | undefined => {
    let k = 0;
    while (k < chunk.length) {
      if (messageLeft > 0) {
        const taken = Math.min(messageLeft, chunk.length - k);
        messageLeft -= taken;
        k += taken;
        continue;
      }
      prefix.push(chunk[k] as number);
      k++;
      if (prefix.length < 4) continue;
      // The message's total length, a big-endian 32-bit integer that includes these 4 bytes.
      const [b0, b1, b2, b3] = prefix as [number, number, number, number];
      const messageBytes = b0 * 2 ** 24 + (b1 << 16) + (b2 << 8) + b3;
      prefix.length = 0;
      if (messageBytes > limits.maxEventBytes) return tooLongEvent();
      const passed = countEvent();
      if (passed) return passed;
      // A length below the prelude's own 4 bytes is a damaged capture; the decoder reports it.
      messageLeft = Math.max(0, messageBytes - 4);
    }
    return undefined;
  };

  return {
    push(chunk) {
      total += chunk.length;
      if (total > limits.maxStreamBytes) {
        return exceeded(
          'max_stream_bytes',
          limits.maxStreamBytes,
          `more than ${limits.maxStreamBytes} bytes`,
        );
      }
      if (mode === UNKNOWN && binary && total === chunk.length && chunk.length > 0) {
        if (!startsText(chunk[0] as number)) mode = BINARY;
      }
      return mode === BINARY ? pushBinary(chunk) : pushText(chunk);
    },
    end() {
      if (mode === BINARY) return undefined;
      const passed = lineBytes > 0 ? endLine() : undefined;
      if (passed) return passed;
      return mode === SSE && eventBytes > 0 ? countEvent() : undefined;
    },
  };
}

/** True when `byte` can open a text stream: whitespace, a byte order mark, `{`, `[`, `:` or an SSE field name. */
function startsText(byte: number): boolean {
  return (
    byte === 0x20 ||
    byte === 0x09 ||
    byte === LF ||
    byte === CR ||
    byte === 0xef ||
    byte === 0x7b ||
    byte === 0x5b ||
    byte === 0x3a ||
    (byte >= 0x61 && byte <= 0x7a)
  );
}
