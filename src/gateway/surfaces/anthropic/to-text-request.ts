import { pointerOf } from '../../../json/json-pointer.js';
import { toBase64 } from '../../../unified/base64.js';
import type { ConfigProblem } from '../../config/config-problem.js';
import type { ChatMessage, ChatUserPart } from '../../request/chat-request-schema.js';
import { type TextRequest, textRequestSchema } from '../../request/request-schemas.js';
import type { MessagesContentBlock, MessagesRequest } from './messages-request-schema.js';

/**
 * An Anthropic Messages request translated to the gateway's text request, which every provider path takes
 * (docs/gateway.md, "Anthropic clients"). Pure: a value in, a value out. What the text request cannot carry is a
 * problem naming the member, never dropped when it would change the answer; what changes only cost or
 * bookkeeping (cache hints, `metadata.user_id`, `service_tier`, thinking blocks of earlier turns) is accepted and
 * not passed on, as the docs list.
 */

/** The translation, or the problems that keep the request from the gateway. */
export type TextRequestTranslation =
  | { ok: true; request: TextRequest }
  | { ok: false; problems: ConfigProblem[] };

/** The `reasoning_effort` nearest to a thinking budget, for targets that take an effort, not a budget. */
export function effortOfBudget(budget: number): 'low' | 'medium' | 'high' {
  if (budget < 4096) return 'low';
  if (budget < 16_384) return 'medium';
  return 'high';
}

type Block = MessagesContentBlock;
type Path = (string | number)[];

/** An image block as the text request's `image_url` part (base64 bytes become a `data:` URL). */
function imagePart(block: Extract<Block, { type: 'image' }>): ChatUserPart {
  const source = block.source;
  const url = source.type === 'url' ? source.url : `data:${source.media_type};base64,${source.data}`;
  return { type: 'image_url', image_url: { url } };
}

/** A document block as a `file` part: a PDF's bytes as they are, plain text encoded as base64. */
function documentPart(block: Extract<Block, { type: 'document' }>): ChatUserPart {
  const source = block.source;
  const data = source.type === 'base64' ? source.data : toBase64(new TextEncoder().encode(source.data));
  const filename = block.title ?? undefined;
  return {
    type: 'file',
    file: {
      file_data: data,
      media_type: source.media_type,
      ...(filename === undefined || filename === '' ? {} : { filename: filename.slice(0, 256) }),
    },
  };
}

class Translation {
  readonly problems: ConfigProblem[] = [];

  problem(path: Path, message: string): void {
    this.problems.push({ path: pointerOf(...path), message });
  }

  /** A user turn: its tool results first (the text request's `tool` messages), then its other blocks. */
  user(content: string | Block[], at: Path, out: ChatMessage[]): void {
    if (typeof content === 'string') {
      out.push({ role: 'user', content });
      return;
    }
    const parts: ChatUserPart[] = [];
    content.forEach((block, index) => {
      const where = [...at, index];
      switch (block.type) {
        case 'text':
          parts.push({ type: 'text', text: block.text });
          break;
        case 'image':
          parts.push(imagePart(block));
          break;
        case 'document':
          parts.push(documentPart(block));
          break;
        case 'tool_result':
          out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: this.toolResult(block, where) });
          break;
        default:
          this.problem([...where, 'type'], `A user message cannot hold a ${block.type} block.`);
      }
    });
    if (parts.length > 0) out.push({ role: 'user', content: parts });
  }

  /** The content of a tool result: its text, the text blocks kept apart. */
  toolResult(
    block: Extract<Block, { type: 'tool_result' }>,
    at: Path,
  ): string | { type: 'text'; text: string }[] {
    const content = block.content ?? '';
    if (typeof content === 'string') return content;
    const texts: { type: 'text'; text: string }[] = [];
    content.forEach((inner, index) => {
      if (inner.type === 'text') texts.push({ type: 'text', text: inner.text });
      else this.problem([...at, 'content', index], 'Images inside a tool_result cannot be passed on.');
    });
    return texts;
  }

  /** An assistant turn: its text and its tool calls; thinking of earlier turns is not passed on. */
  assistant(content: string | Block[], at: Path, out: ChatMessage[]): void {
    if (typeof content === 'string') {
      out.push({ role: 'assistant', content });
      return;
    }
    const texts: { type: 'text'; text: string }[] = [];
    const calls: Extract<ChatMessage, { role: 'assistant' }>['tool_calls'] & object = [];
    content.forEach((block, index) => {
      if (block.type === 'text') texts.push({ type: 'text', text: block.text });
      else if (block.type === 'tool_use') {
        calls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input) },
        });
      } else if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
        this.problem([...at, index, 'type'], `An assistant message cannot hold a ${block.type} block.`);
      }
    });
    out.push({
      role: 'assistant',
      content: texts,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    });
  }
}

/**
 * Translate a checked Messages request to the gateway's text request.
 * @example
 * const translated = toTextRequest({ model: 'openai:gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
 * // translated.request.messages: [{ role: 'user', content: 'Hi' }], translated.request.max_output_tokens: 64
 */
export function toTextRequest(body: MessagesRequest): TextRequestTranslation {
  const t = new Translation();
  const messages: ChatMessage[] = [];
  if (typeof body.system === 'string') messages.push({ role: 'system', content: body.system });
  else if (body.system !== undefined && body.system.length > 0) {
    messages.push({
      role: 'system',
      content: body.system.map((block) => ({ type: 'text', text: block.text })),
    });
  }
  body.messages.forEach((entry, index) => {
    const at = ['messages', index, 'content'];
    if (entry.role === 'user') t.user(entry.content, at, messages);
    else t.assistant(entry.content, at, messages);
  });
  const request: Record<string, unknown> = {
    model: body.model,
    messages,
    max_output_tokens: body.max_tokens,
  };
  if (body.temperature !== undefined) request.temperature = body.temperature;
  if (body.top_p !== undefined) request.top_p = body.top_p;
  if (body.top_k !== undefined) request.top_k = body.top_k;
  if (body.stop_sequences !== undefined && body.stop_sequences.length > 0) request.stop = body.stop_sequences;
  if (body.stream !== undefined) request.stream = body.stream;
  const tools: unknown[] = [];
  body.tools?.forEach((entry, index) => {
    if (entry.type !== undefined && entry.type !== 'custom') {
      t.problem(
        ['tools', index, 'type'],
        `Anthropic server tools ("${String(entry.type)}") cannot be passed on; declare tools with an input_schema.`,
      );
      return;
    }
    const custom = entry as { name: string; description?: string; input_schema: Record<string, unknown> };
    tools.push({
      type: 'function',
      function: {
        name: custom.name,
        ...(custom.description === undefined ? {} : { description: custom.description }),
        parameters: custom.input_schema,
      },
    });
  });
  if (tools.length > 0) request.tools = tools;
  const choice = body.tool_choice;
  if (choice !== undefined) {
    if (choice.type === 'auto') request.tool_choice = 'auto';
    else if (choice.type === 'any') request.tool_choice = 'required';
    else if (choice.type === 'none') request.tool_choice = 'none';
    else request.tool_choice = { type: 'function', function: { name: choice.name } };
    if (choice.type !== 'none' && choice.disable_parallel_tool_use === true)
      request.parallel_tool_calls = false;
  }
  const thinking = body.thinking;
  if (thinking !== undefined && thinking.type !== 'disabled') {
    // Anthropic refuses sampling changes with thinking on; the AI SDK would drop them with a warning instead.
    for (const member of ['top_k', 'temperature'] as const) {
      if (body[member] !== undefined) t.problem([member], `"${member}" cannot be combined with "thinking".`);
    }
  }
  if (thinking?.type === 'enabled') {
    // An Anthropic target gets the exact budget; other targets the effort nearest to it.
    request.reasoning_effort = effortOfBudget(thinking.budget_tokens);
    request.provider_options = {
      anthropic: { thinking: { type: 'enabled', budgetTokens: thinking.budget_tokens } },
    };
  } else if (thinking?.type === 'adaptive') {
    request.reasoning_effort = 'medium';
    request.provider_options = { anthropic: { thinking: { type: 'adaptive' } } };
  }
  if (t.problems.length > 0) return { ok: false, problems: t.problems };
  // The gateway's own request schema has the last word, so the pipeline only ever sees requests it accepts.
  const checked = textRequestSchema.safeParse(request);
  if (!checked.success) {
    return {
      ok: false,
      problems: checked.error.issues.map((issue) => ({
        path: pointerOf(...issue.path.map((token) => (typeof token === 'symbol' ? String(token) : token))),
        message: `After translation to the text request: ${issue.message}`,
      })),
    };
  }
  return { ok: true, request: checked.data };
}
