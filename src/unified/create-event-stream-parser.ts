import { readBody } from './read-body.js';

/** What one step of an {@link EventStreamParser} gives: the events it completed, or the first one not JSON. */
export type EventStreamStep = { ok: true; events: unknown[] } | { ok: false; line: number; message: string };

/**
 * An incremental reader of a stream's events: bytes or text go in as they arrive, in any chunking, and each
 * step gives the JSON payloads of the events it completed. The same parser reads a live provider stream and a
 * captured one (`parseEventStream` is this parser fed the whole text at once), so the two cannot read the same
 * bytes differently.
 */
export interface EventStreamParser {
  /** Reads the next piece of the stream; gives the events it completed. */
  push(chunk: string | Uint8Array): EventStreamStep;
  /** The stream is over: gives the events still pending (a last event without its blank line). */
  end(): EventStreamStep;
}

/** The framings a stream may come in, decided by its first line that is not blank. */
type Framing = 'undecided' | 'sse' | 'lines' | 'array';

/** A line that is a field of server-sent events, or an SSE comment. */
const SSE_LINE = /^(?:data|event|id|retry):|^:/;

/**
 * Make a parser for one stream. It reads server-sent events (`event:`/`data:` lines, blank-line separated,
 * comments skipped, `data: [DONE]` dropped), one JSON event per line, or one JSON array of events (Gemini
 * without `alt=sse`, read at the end); which one is decided by the stream's first line that is not blank.
 * Never throws; after an event that is not JSON every step repeats that failure.
 * @example
 * const parser = createEventStreamParser();
 * parser.push('data: {"a"'); // { ok: true, events: [] }
 * parser.push(':1}\n\n'); // { ok: true, events: [{ a: 1 }] }
 */
export function createEventStreamParser(): EventStreamParser {
  const decoder = new TextDecoder();
  let framing: Framing = 'undecided';
  let first = true;
  let pending = '';
  let lineNumber = 0;
  let data: string[] = [];
  let dataLine = 0;
  let whole: string[] = [];
  let failed: EventStreamStep | undefined;

  const fail = (line: number, message: string): EventStreamStep => {
    failed = { ok: false, line, message };
    return failed;
  };

  /** Dispatches the SSE event gathered so far; a failure when its data is not JSON. */
  const dispatch = (events: unknown[]): EventStreamStep | undefined => {
    if (data.length === 0) return undefined;
    const payload = data.length === 1 ? (data[0] as string) : data.join('\n');
    data = [];
    const trimmed = payload.trim();
    if (trimmed === '' || trimmed === '[DONE]') return undefined;
    const read = readBody(payload);
    if (!read.ok) return fail(dataLine, `The data of the event at line ${dataLine} is not JSON.`);
    events.push(read.value);
    return undefined;
  };

  /** Reads one complete line (without its terminator). */
  const line = (text: string, events: unknown[]): EventStreamStep | undefined => {
    lineNumber++;
    if (framing === 'undecided') {
      const trimmed = text.trim();
      if (trimmed === '') return undefined;
      framing = SSE_LINE.test(text)
        ? 'sse'
        : trimmed.startsWith('[') && trimmed !== '[DONE]'
          ? 'array'
          : 'lines';
    }
    if (framing === 'array') {
      whole.push(text);
      return undefined;
    }
    if (framing === 'lines') {
      const trimmed = text.trim();
      if (trimmed === '' || trimmed === '[DONE]') return undefined;
      const read = readBody(trimmed);
      if (!read.ok) return fail(lineNumber, `Line ${lineNumber} is not a JSON event.`);
      events.push(read.value);
      return undefined;
    }
    if (text === '') return dispatch(events);
    if (text.startsWith(':')) return undefined;
    if (text.startsWith('data:')) {
      if (data.length === 0) dataLine = lineNumber;
      // SSE strips exactly one space after the colon.
      data.push(text.charCodeAt(5) === 32 ? text.slice(6) : text.slice(5));
    }
    return undefined;
  };

  /** Reads the complete lines of `pending`, keeping a last line without its terminator for later. */
  const lines = (final: boolean): EventStreamStep => {
    const events: unknown[] = [];
    let start = 0;
    // Where the next LF and CR are: each is searched again only once passed, so a text of many lines is read in
    // one pass however its line endings mix (searching both from every line would be quadratic).
    let lf = -1;
    let cr = -1;
    for (;;) {
      if (lf !== Number.POSITIVE_INFINITY && lf < start) {
        lf = pending.indexOf('\n', start);
        if (lf < 0) lf = Number.POSITIVE_INFINITY;
      }
      if (cr !== Number.POSITIVE_INFINITY && cr < start) {
        cr = pending.indexOf('\r', start);
        if (cr < 0) cr = Number.POSITIVE_INFINITY;
      }
      let end = Math.min(lf, cr);
      if (end === Number.POSITIVE_INFINITY) break;
      let next = end + 1;
      if (pending.charCodeAt(end) === 13) {
        // A CR at the end of the piece may be the first half of a CRLF: wait for the next piece.
        if (end === pending.length - 1 && !final) break;
        if (pending.charCodeAt(end + 1) === 10) next = end + 2;
      }
      const failure = line(pending.slice(start, end), events);
      if (failure !== undefined) return failure;
      start = next;
      end = -1;
    }
    pending = pending.slice(start);
    return { ok: true, events };
  };

  return {
    push(chunk) {
      if (failed !== undefined) return failed;
      let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (first && text !== '') {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      pending += text;
      return lines(false);
    },
    end() {
      if (failed !== undefined) return failed;
      const rest = decoder.decode();
      if (rest !== '') pending += first && rest.charCodeAt(0) === 0xfeff ? rest.slice(1) : rest;
      first = false;
      const step = lines(true);
      if (!step.ok) return step;
      const { events } = step;
      if (pending !== '') {
        const failure = line(pending, events);
        pending = '';
        if (failure !== undefined) return failure;
      }
      if (framing === 'sse') {
        const failure = dispatch(events);
        if (failure !== undefined) return failure;
      }
      if (framing === 'array') {
        const text = whole.join('\n');
        whole = [];
        const read = readBody(text.trim());
        if (read.ok && Array.isArray(read.value)) return { ok: true, events: read.value };
        // Not one array after all: read as one JSON event per line, as a stream of lines would be.
        framing = 'lines';
        lineNumber = 0;
        for (const each of text.split('\n')) {
          const failure = line(each, events);
          if (failure !== undefined) return failure;
        }
      }
      return { ok: true, events };
    },
  };
}
