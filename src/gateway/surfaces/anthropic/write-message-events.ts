import type { UnifiedOutput } from '../../../unified/types.js';
import { toErrorBody, unrenderableError } from './to-error-body.js';
import {
  mediaProblemOf,
  messageIdOf,
  reasoningOf,
  stopReasonOf,
  toolUseBlocksOf,
  usageOf,
} from './to-message.js';

/**
 * The gateway's text stream events (`delta`, `tool_call_start`, `tool_call_delta`, then one `envelope`) as
 * Anthropic's Messages stream (docs/gateway.md, "Anthropic clients"): `message_start` and a `ping`, then for
 * each block `content_block_start`, its `text_delta` or `input_json_delta` pieces and `content_block_stop`,
 * then `message_delta` with the stop reason and usage, and `message_stop`. A failure after the stream began
 * ends it with an `error` event. The closing events are written from the envelope, so the stream and the
 * envelope say the same thing.
 */

/** Writes one server-sent event: its name and its JSON data. */
export type SendEvent = (event: string, data: unknown) => Promise<void>;

/** The block being written: a text or thinking block, or the tool call with this id. */
type OpenBlock =
  | { index: number; kind: 'text' | 'thinking' }
  | { index: number; kind: 'tool_use'; id: string };

/**
 * A writer of one Anthropic stream; give it the gateway's stream events in order.
 * @example
 * const write = createMessageEventWriter((event, data) => events.write(event, data), { traceId, model });
 * await write('delta', { text: 'Hel' });
 */
export function createMessageEventWriter(
  send: SendEvent,
  start: { traceId: string; model: string },
): (event: string, data: unknown) => Promise<void> {
  let started = false;
  let ended = false;
  let open: OpenBlock | undefined;
  let next = 0;
  /** The block index of each tool call the stream showed. */
  const streamedTools = new Map<string, number>();

  const begin = async () => {
    if (started) return;
    started = true;
    await send('message_start', {
      type: 'message_start',
      message: {
        id: messageIdOf(start.traceId),
        type: 'message',
        role: 'assistant',
        model: start.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // The input is counted only once the answer ends; message_delta carries the counts.
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
    await send('ping', { type: 'ping' });
  };
  const close = async () => {
    if (open === undefined) return;
    await send('content_block_stop', { type: 'content_block_stop', index: open.index });
    open = undefined;
  };
  const openBlock = async (block: OpenBlock, content: Record<string, unknown>) => {
    await close();
    open = block;
    next++;
    await send('content_block_start', {
      type: 'content_block_start',
      index: block.index,
      content_block: content,
    });
  };
  const delta = (index: number, body: Record<string, unknown>) =>
    send('content_block_delta', { type: 'content_block_delta', index, delta: body });

  const finish = async (envelope: UnifiedOutput) => {
    if (!envelope.success) {
      // Anthropic's own mid-stream failure: an error event, with no message_stop after it.
      await send('error', toErrorBody(envelope).body);
      return;
    }
    const media = mediaProblemOf(envelope);
    if (media !== undefined) {
      await send('error', unrenderableError(media, start.traceId).body);
      return;
    }
    const tools = toolUseBlocksOf(envelope);
    if (!tools.ok) {
      await send('error', unrenderableError(tools.problem, start.traceId).body);
      return;
    }
    await close();
    const reasoning = reasoningOf(envelope);
    if (reasoning !== undefined) {
      const index = next;
      await openBlock({ index, kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
      await delta(index, { type: 'thinking_delta', thinking: reasoning });
      await close();
    }
    // A call the stream did not show piece by piece is written whole.
    for (const block of tools.blocks) {
      if (streamedTools.has(block.id)) continue;
      const index = next;
      await openBlock({ index, kind: 'tool_use', id: block.id }, { ...block, input: {} });
      await delta(index, { type: 'input_json_delta', partial_json: JSON.stringify(block.input) });
      await close();
    }
    await send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(envelope), stop_sequence: null },
      usage: usageOf(envelope),
    });
    await send('message_stop', { type: 'message_stop' });
  };

  return async (event, data) => {
    if (ended) return;
    const value = (data ?? {}) as { text?: unknown; id?: unknown; name?: unknown; arguments?: unknown };
    if (event === 'envelope') {
      ended = true;
      const envelope = data as UnifiedOutput;
      if (envelope.success) await begin();
      await finish(envelope);
      return;
    }
    await begin();
    if (event === 'delta' && typeof value.text === 'string') {
      if (open?.kind !== 'text') await openBlock({ index: next, kind: 'text' }, { type: 'text', text: '' });
      await delta((open as OpenBlock).index, { type: 'text_delta', text: value.text });
    } else if (event === 'tool_call_start' && typeof value.id === 'string') {
      streamedTools.set(value.id, next);
      await openBlock(
        { index: next, kind: 'tool_use', id: value.id },
        { type: 'tool_use', id: value.id, name: value.name, input: {} },
      );
    } else if (event === 'tool_call_delta' && typeof value.arguments === 'string') {
      // The providers send one call's pieces together; a piece of an earlier call still goes to its own block
      // (the SDKs gather pieces by index), so no argument is lost.
      const index = typeof value.id === 'string' ? streamedTools.get(value.id) : undefined;
      if (index !== undefined)
        await delta(index, { type: 'input_json_delta', partial_json: value.arguments });
    }
  };
}
