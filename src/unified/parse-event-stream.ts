import { readBody } from './read-body.js';

/** The outcome of {@link parseEventStream}: the events' JSON payloads in order, or the first one that is not JSON. */
export type EventStreamParse = { ok: true; events: unknown[] } | { ok: false; line: number; message: string };

/**
 * Read a captured stream into its JSON events: a raw SSE body (`event:`/`data:` lines, blank-line separated,
 * `data: [DONE]` dropped), one JSON event per line, or one JSON array of events (Gemini without `alt=sse`).
 * Never throws.
 * @example parseEventStream('data: {"a":1}\n\ndata: [DONE]\n\n') // { ok: true, events: [{ a: 1 }] }
 */
export function parseEventStream(text: string): EventStreamParse {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const isSse = lines.some((line) => /^(data|event|id|retry):/.test(line));
  if (!isSse) {
    const trimmed = text.trim();
    if (trimmed.startsWith('[')) {
      const whole = readBody(trimmed);
      if (whole.ok && Array.isArray(whole.value)) return { ok: true, events: whole.value };
    }
    return jsonLines(lines);
  }
  const events: unknown[] = [];
  let data: string[] = [];
  let startLine = 0;
  const flush = (): EventStreamParse | undefined => {
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '' || payload.trim() === '[DONE]') return undefined;
    const read = readBody(payload);
    if (!read.ok)
      return {
        ok: false,
        line: startLine,
        message: `The data of the event at line ${startLine} is not JSON.`,
      };
    events.push(read.value);
    return undefined;
  };
  for (const [index, line] of lines.entries()) {
    if (line === '') {
      const failed = flush();
      if (failed) return failed;
      continue;
    }
    if (line.startsWith(':')) continue;
    if (line.startsWith('data:')) {
      if (data.length === 0) startLine = index + 1;
      // SSE strips exactly one space after the colon.
      data.push(line.slice(5).replace(/^ /, ''));
    }
  }
  return flush() ?? { ok: true, events };
}

function jsonLines(lines: readonly string[]): EventStreamParse {
  const events: unknown[] = [];
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed === '[DONE]') continue;
    const read = readBody(trimmed);
    if (!read.ok) return { ok: false, line: index + 1, message: `Line ${index + 1} is not a JSON event.` };
    events.push(read.value);
  }
  return { ok: true, events };
}
