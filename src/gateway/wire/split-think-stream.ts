import type { WireDelta } from './wire-format.js';

const OPEN = '<think>';
const CLOSE = '</think>';

/** A splitter of streamed answer text into text and reasoning deltas (see {@link createThinkSplitter}). */
export interface ThinkSplitter {
  /** Reads the next piece of the answer's text, adding its deltas to `out`. */
  push(text: string, out: WireDelta[]): void;
  /** The answer's text is over: what was held back (a start that could have opened a block) goes out as text. */
  flush(out: WireDelta[]): void;
}

/**
 * Split a leading `<think>…</think>` block off a streamed answer as it arrives, the way the normalizer splits it
 * off the whole answer (docs/unified.md, "Reasoning"): only a block at the very start counts (whitespace before
 * it aside), its inside is reasoning, and the whitespace after it is dropped. Text that may still be the start of
 * the block, or of its closing tag, is held back until the next piece decides.
 */
export function createThinkSplitter(): ThinkSplitter {
  let state: 'head' | 'think' | 'after' | 'text' = 'head';
  let held = '';
  const text = (value: string, out: WireDelta[]) => {
    if (value !== '') out.push({ type: 'text', text: value });
  };
  const reasoning = (value: string, out: WireDelta[]) => {
    if (value !== '') out.push({ type: 'reasoning', text: value });
  };
  const push = (piece: string, out: WireDelta[]): void => {
    if (state === 'text') {
      text(piece, out);
      return;
    }
    held += piece;
    if (state === 'head') {
      const trimmed = held.trimStart();
      if (trimmed === '' || (trimmed.length < OPEN.length && OPEN.startsWith(trimmed))) return;
      if (!trimmed.startsWith(OPEN)) {
        state = 'text';
        const all = held;
        held = '';
        text(all, out);
        return;
      }
      state = 'think';
      held = trimmed.slice(OPEN.length);
    }
    if (state === 'think') {
      const close = held.indexOf(CLOSE);
      if (close < 0) {
        // Keep back what may be the start of the closing tag.
        let keep = Math.min(CLOSE.length - 1, held.length);
        while (keep > 0 && !CLOSE.startsWith(held.slice(held.length - keep))) keep--;
        reasoning(held.slice(0, held.length - keep), out);
        held = held.slice(held.length - keep);
        return;
      }
      reasoning(held.slice(0, close), out);
      held = held.slice(close + CLOSE.length);
      state = 'after';
    }
    const rest = held.trimStart();
    held = '';
    if (rest !== '') {
      state = 'text';
      text(rest, out);
    }
  };
  return {
    push,
    flush(out) {
      if (state === 'head') text(held, out);
      else if (state === 'think') reasoning(held, out);
      held = '';
    },
  };
}
