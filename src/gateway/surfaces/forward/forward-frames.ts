import { isJsonObject } from '../../../contract/findings.js';
import type { ClientFormat } from './same-format.js';

/**
 * The frames of a forwarded stream: the provider's server-sent events cut at their blank lines as the bytes
 * arrive, each kept as the text it came in (passed to the client unchanged) beside its parsed data (read by the
 * gateway). The provider fetch bounds every event (docs/gateway.md, "Bounds"), so the text held while a frame is
 * incomplete is bounded too.
 */

/** One event of the stream: its text as sent, its `event:` name and its data lines. */
export interface StreamFrame {
  /** The frame's text, its blank line included. */
  readonly text: string;
  /** The `event:` field, when the frame names one (Anthropic's do). */
  readonly event: string | undefined;
  /** The data lines joined by newlines, when the frame has any. */
  readonly data: string | undefined;
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
  return { text, event, data };
}

/** A frame's data as JSON, or `undefined` when it has none or it is not JSON. */
function dataOf(frame: StreamFrame): unknown {
  if (frame.data === undefined) return undefined;
  try {
    return JSON.parse(frame.data) as unknown;
  } catch {
    return undefined;
  }
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

  /**
   * The stream is over: a last frame without its blank line, if any text is left, ended by one. A client reads
   * an event only once its blank line came, and what the gateway writes after it must not join its last line.
   */
  end(): StreamFrame[] {
    this.pending += this.decoder.decode();
    const rest = this.pending;
    this.pending = '';
    return rest.trim() === '' ? [] : [readFrame(`${rest.replace(/[\r\n]+$/, '')}\n\n`)];
  }
}

/**
 * Data that may be an error event: the JSON is parsed only for frames that name an error somewhere, since its
 * `error` member need not come first (the normalizer reads any such member as the provider's error).
 */
const MAY_BE_ERROR = /"error"/;

/** True for an error event of the format (OpenAI's `{"error": …}` data, Anthropic's `error` event). */
export function isErrorFrame(format: ClientFormat, frame: StreamFrame): boolean {
  if (format === 'anthropic.messages' && frame.event === 'error') return true;
  if (frame.data === undefined || !MAY_BE_ERROR.test(frame.data)) return false;
  const data = dataOf(frame);
  if (!isJsonObject(data)) return false;
  if (format === 'anthropic.messages') return data.type === 'error';
  return data.error !== undefined && data.error !== null;
}

/** Data that may be OpenAI's usage chunk. */
const MAY_BE_USAGE = /"choices"\s*:\s*\[\s*\]/;

/** True for OpenAI's usage chunk (`choices: []` with `usage`), sent when a stream asks for its usage. */
export function isUsageOnlyFrame(format: ClientFormat, frame: StreamFrame): boolean {
  if (format !== 'openai.chat' || frame.data === undefined || !MAY_BE_USAGE.test(frame.data)) return false;
  const data = dataOf(frame);
  if (!isJsonObject(data)) return false;
  const { choices, usage } = data;
  return Array.isArray(choices) && choices.length === 0 && isJsonObject(usage);
}
