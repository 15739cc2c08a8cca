import { buildMessagesRequest } from './anthropic-request.js';
import { createWireFormat } from './native-wire-format.js';
import type { WireDelta, WireEventDeltas, WireFormat } from './wire-format.js';

/**
 * Anthropic's Messages API as a wire format: verdict's text requests are built natively (anthropic-request.ts;
 * the few it does not build keep the AI SDK's path), a plain answer and a stream are read by the
 * `anthropic.messages` normalizer `verdict normalize` runs, and a stream's events give the client's deltas as
 * they arrive. Same-format forwarding (docs/gateway.md, "Same-format forwarding") reads the answers to an
 * Anthropic client's own body with the same reader.
 */

/** One event of a Messages stream, as far as its deltas go. */
interface MessageEvent {
  readonly type?: unknown;
  readonly index?: unknown;
  readonly content_block?: { type?: unknown; id?: unknown; name?: unknown; text?: unknown } | null;
  readonly delta?: {
    type?: unknown;
    text?: unknown;
    thinking?: unknown;
    partial_json?: unknown;
  } | null;
}

/**
 * The deltas of a Messages stream: tool-use blocks are tied to their id by the block's index, and text blocks
 * that another block separates are heard with the blank line the envelope joins them with.
 */
function messageDeltas(): WireEventDeltas {
  const ids = new Map<unknown, string>();
  let heard = false;
  let separated = false;
  let pendingBreak = false;
  const text = (out: WireDelta[], value: string) => {
    if (pendingBreak) out.push({ type: 'text', text: '\n\n' });
    pendingBreak = false;
    heard = true;
    out.push({ type: 'text', text: value });
  };
  return (event) => {
    const out: WireDelta[] = [];
    const { type, index, content_block: block, delta } = (event ?? {}) as MessageEvent;
    if (type === 'content_block_start' && block !== null && typeof block === 'object') {
      if (block.type !== 'text') separated = true;
      else {
        // As the envelope joins text blocks: a paragraph break only between two that say something.
        pendingBreak = separated && heard;
        separated = false;
      }
      if (block.type === 'tool_use' && typeof block.id === 'string') {
        ids.set(index, block.id);
        out.push({
          type: 'tool_call_start',
          id: block.id,
          name: typeof block.name === 'string' ? block.name : '',
        });
      } else if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
        text(out, block.text);
      }
    } else if (type === 'content_block_delta' && delta !== null && typeof delta === 'object') {
      if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') {
        text(out, delta.text);
      } else if (
        delta.type === 'thinking_delta' &&
        typeof delta.thinking === 'string' &&
        delta.thinking !== ''
      ) {
        out.push({ type: 'reasoning', text: delta.thinking });
      } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
        const id = ids.get(index);
        if (id !== undefined && delta.partial_json !== '') {
          out.push({ type: 'tool_call_delta', id, arguments: delta.partial_json });
        }
      }
    }
    return out;
  };
}

/** Anthropic Messages, built and read natively. */
export const anthropicMessagesWire: WireFormat = createWireFormat(
  'anthropic.messages',
  buildMessagesRequest,
  messageDeltas,
);
