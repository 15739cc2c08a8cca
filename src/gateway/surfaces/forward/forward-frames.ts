import { isJsonObject } from '../../../contract/findings.js';
import type { ClientFormat } from './same-format.js';

/**
 * The frames of a forwarded stream: the provider's server-sent events cut at their blank lines as the bytes
 * arrive, each kept as the text it came in (passed to the client unchanged) beside its parsed data (read by the
 * gateway). The provider fetch bounds every event (docs/gateway.md, "Bounds"), so the text held while a frame is
 * incomplete is bounded too.
 */

/** One event of the stream: its text as sent, its `event:` name and its data parsed as JSON. */
export interface StreamFrame {
  /** The frame's text, its blank line included. */
  readonly text: string;
  /** The `event:` field, when the frame names one (Anthropic's do). */
  readonly event: string | undefined;
  /** The data lines' JSON value; `undefined` for a frame without data, `[DONE]` or data that is not JSON. */
  readonly data: unknown;
  /** True for OpenAI's `data: [DONE]`. */
  readonly done: boolean;
}

/** A blank line: the end of a frame (CRLF, LF or CR line endings). */
const BLANK_LINE = /\r\n\r\n|\n\n|\r\r/;

/** The frame of one event's text. */
function readFrame(text: string): StreamFrame {
  let event: string | undefined;
  let data: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.startsWith('data:')) {
      // One space after the colon is not part of the value (the server-sent events format).
      const value = line.slice(line.charCodeAt(5) === 0x20 ? 6 : 5);
      data = data === undefined ? value : `${data}\n${value}`;
    } else if (line.startsWith('event:')) {
      event = line.slice(6).trim();
    }
  }
  const done = data?.trim() === '[DONE]';
  let parsed: unknown;
  if (data !== undefined && !done) {
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
  }
  return { text, event, data: parsed, done };
}

/** Cuts a stream's text into frames as it arrives. */
export class FrameSplitter {
  private pending = '';
  private readonly decoder = new TextDecoder();

  /** The frames the chunk completes. */
  push(chunk: Uint8Array): StreamFrame[] {
    this.pending += this.decoder.decode(chunk, { stream: true });
    const frames: StreamFrame[] = [];
    for (;;) {
      const blank = BLANK_LINE.exec(this.pending);
      if (blank === null) break;
      const end = blank.index + blank[0].length;
      frames.push(readFrame(this.pending.slice(0, end)));
      this.pending = this.pending.slice(end);
    }
    return frames;
  }

  /** The stream is over: a last frame without its blank line, if any text is left. */
  end(): StreamFrame[] {
    this.pending += this.decoder.decode();
    const rest = this.pending;
    this.pending = '';
    return rest.trim() === '' ? [] : [readFrame(rest)];
  }
}

/** True for an error event of the format (OpenAI's `{"error": …}` data, Anthropic's `error` event). */
export function isErrorFrame(format: ClientFormat, frame: StreamFrame): boolean {
  if (format === 'anthropic.messages') {
    return frame.event === 'error' || (isJsonObject(frame.data) && frame.data.type === 'error');
  }
  return isJsonObject(frame.data) && frame.data.error !== undefined && frame.data.error !== null;
}

/** True for a frame that carries the answer itself: text, reasoning, a tool call, or the answer's end. */
export function isAnswerFrame(format: ClientFormat, frame: StreamFrame): boolean {
  if (frame.done) return true;
  const data = frame.data;
  if (!isJsonObject(data)) return false;
  if (format === 'anthropic.messages') {
    return (
      data.type === 'content_block_start' ||
      data.type === 'content_block_delta' ||
      data.type === 'message_delta' ||
      data.type === 'message_stop'
    );
  }
  const choices = data.choices;
  if (!Array.isArray(choices)) return false;
  return choices.some((choice) => {
    if (!isJsonObject(choice)) return false;
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) return true;
    const delta = choice.delta;
    if (!isJsonObject(delta)) return false;
    return Object.entries(delta).some(
      ([name, value]) => name !== 'role' && value !== null && value !== '' && value !== undefined,
    );
  });
}

/** True for OpenAI's usage chunk (`choices: []` with `usage`), sent when a stream asks for its usage. */
export function isUsageOnlyFrame(format: ClientFormat, frame: StreamFrame): boolean {
  if (format !== 'openai.chat' || !isJsonObject(frame.data)) return false;
  const { choices, usage } = frame.data;
  return Array.isArray(choices) && choices.length === 0 && isJsonObject(usage);
}
