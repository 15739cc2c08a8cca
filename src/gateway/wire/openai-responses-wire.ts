import { createWireFormat } from './native-wire-format.js';
import { buildResponsesRequest } from './openai-responses-request.js';
import type { WireDelta, WireEventDeltas } from './wire-format.js';

/**
 * The deltas of a Responses API stream: output text, reasoning text (summaries and raw reasoning), and function
 * calls as their items start and their arguments arrive. Argument events name the call's output item, so item
 * ids are tied to the call ids the client sees.
 */
function responsesDeltas(): WireEventDeltas {
  const calls = new Map<string, string>();
  // The answer joins the texts of its message items with a blank line; the deltas say the same.
  let messageItem: unknown;
  let textedItem: unknown;
  let texted = false;
  return (event) => {
    const out: WireDelta[] = [];
    if (event === null || typeof event !== 'object') return out;
    const { type, delta, item, item_id: itemId } = event as Record<string, unknown>;
    if (type === 'response.output_text.delta' && typeof delta === 'string' && delta !== '') {
      if (texted && textedItem !== (itemId ?? messageItem)) out.push({ type: 'text', text: '\n\n' });
      texted = true;
      textedItem = itemId ?? messageItem;
      out.push({ type: 'text', text: delta });
    } else if (
      (type === 'response.reasoning_summary_text.delta' || type === 'response.reasoning_text.delta') &&
      typeof delta === 'string' &&
      delta !== ''
    )
      out.push({ type: 'reasoning', text: delta });
    else if (type === 'response.output_item.added' && item !== null && typeof item === 'object') {
      const { type: kind, id, call_id: callId, name, arguments: args } = item as Record<string, unknown>;
      if (kind === 'message') messageItem = id;
      if (kind === 'function_call' && typeof callId === 'string') {
        if (typeof id === 'string') calls.set(id, callId);
        out.push({ type: 'tool_call_start', id: callId, name: typeof name === 'string' ? name : '' });
        if (typeof args === 'string' && args !== '')
          out.push({ type: 'tool_call_delta', id: callId, arguments: args });
      }
    } else if (
      type === 'response.function_call_arguments.delta' &&
      typeof delta === 'string' &&
      delta !== ''
    ) {
      const id = typeof itemId === 'string' ? calls.get(itemId) : undefined;
      if (id !== undefined) out.push({ type: 'tool_call_delta', id, arguments: delta });
    }
    return out;
  };
}

/** OpenAI's Responses API (`POST /responses`), read by the `openai.responses` normalizer. */
export const openAiResponsesWire = createWireFormat(
  'openai.responses',
  buildResponsesRequest,
  responsesDeltas,
);
