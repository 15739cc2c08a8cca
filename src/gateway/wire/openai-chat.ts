import type { UnifiedFormat } from '../../unified/normalize-response.js';
import { normalizeResponse } from '../../unified/normalize-response.js';
import type { JsonObject } from '../basics/json-value.js';
import type { ChatMessage, ChatUserPart } from '../request/chat-request-schema.js';
import type { TextRequest } from '../request/request-schemas.js';
import { readWireStream } from './read-wire-stream.js';
import { createThinkSplitter } from './split-think-stream.js';
import type { WireDelta, WireFormat, WireRequestBuild, WireTarget } from './wire-format.js';

/**
 * OpenAI Chat Completions (`POST /chat/completions`), spoken natively to OpenAI and to every server of the
 * OpenAI-compatible family (docs/design.md, "Native wire formats"). verdict's text request is itself an OpenAI
 * chat request, so building one is mostly choosing what the target takes; answers are read by the normalizer of
 * `format` (`openai.chat`, `openai-compatible.chat`, `openrouter.chat`).
 */

/** Which members a dialect of Chat Completions takes beyond the common ones. */
interface ChatDialect {
  /**
   * OpenAI's own API: `developer` messages and `max_completion_tokens` for its reasoning models, `json_schema`
   * answers, `user`, `store`, `metadata`, `service_tier`.
   */
  readonly openai: boolean;
  /** The member the sampling seed goes in: `seed`, or Mistral's `random_seed`. */
  readonly seed?: 'random_seed';
  /** Mistral's name for "some tool must be called": `any`. */
  readonly requiredChoice?: 'any';
}

/** The text of a string or a list of text parts. */
function textOf(content: string | readonly { text: string }[] | null | undefined): string {
  if (content === undefined || content === null) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

/** A file's bytes as a `data:` URL, which Chat Completions takes as `file_data`. */
function dataUrlOf(data: string, mediaType: string): string {
  return data.startsWith('data:') ? data : `data:${mediaType};base64,${data}`;
}

/** One user part on the wire. */
function userPart(part: ChatUserPart, index: number): JsonObject {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image_url':
      return {
        type: 'image_url',
        image_url: {
          url: part.image_url.url,
          ...(part.image_url.detail === undefined ? {} : { detail: part.image_url.detail }),
        },
      };
    case 'input_audio':
      return {
        type: 'input_audio',
        input_audio: { data: part.input_audio.data, format: part.input_audio.format },
      };
    case 'file': {
      const inline = /^data:([a-z]+\/[a-z0-9.+-]+);base64,/.exec(part.file.file_data)?.[1];
      const mediaType = part.file.media_type ?? inline ?? 'application/pdf';
      return {
        type: 'file',
        file: {
          filename: part.file.filename ?? `part-${index}.pdf`,
          file_data: dataUrlOf(part.file.file_data, mediaType),
        },
      };
    }
  }
}

/** One message on the wire: the request's own shape, without the members that say nothing to the model. */
function wireMessage(message: ChatMessage, dialect: ChatDialect, reasoning: boolean): JsonObject {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: textOf(message.content) };
    case 'developer':
      // Only OpenAI's reasoning models take the `developer` role; for every other model it is a system message.
      return { role: dialect.openai && reasoning ? 'developer' : 'system', content: textOf(message.content) };
    case 'user': {
      const { content } = message;
      if (typeof content === 'string') return { role: 'user', content };
      const [only] = content;
      if (content.length === 1 && only?.type === 'text') return { role: 'user', content: only.text };
      return { role: 'user', content: content.map(userPart) };
    }
    case 'assistant': {
      const text = textOf(message.content);
      const calls = message.tool_calls?.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: call.function.arguments },
      }));
      return {
        role: 'assistant',
        content: text === '' && calls !== undefined ? null : text,
        ...(calls === undefined ? {} : { tool_calls: calls }),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: textOf(message.content) };
  }
}

/** OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…), which take `max_completion_tokens` only. */
function isReasoningModel(modelId: string): boolean {
  return /^(?:o\d|gpt-5)/.test(modelId) && !modelId.startsWith('gpt-5-chat');
}

/** Sets `key` on `body` when `value` is given. */
function put(body: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}

/** The Chat Completions body of a text request for one target. */
function chatBody(
  request: TextRequest,
  target: WireTarget,
  dialect: ChatDialect,
  stream: boolean,
): JsonObject {
  const messages: JsonObject[] = [];
  if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
  const conversation = request.messages ?? request.input ?? '';
  if (typeof conversation === 'string') messages.push({ role: 'user', content: conversation });
  else {
    const reasoning = isReasoningModel(target.modelId);
    for (const message of conversation) messages.push(wireMessage(message, dialect, reasoning));
  }
  const body: Record<string, unknown> = { model: target.modelId, messages };
  const maxTokens = request.max_output_tokens ?? request.max_tokens ?? request.max_completion_tokens;
  // OpenAI's reasoning models take only `max_completion_tokens`; its other models and the compatible servers
  // take `max_tokens`.
  put(
    body,
    dialect.openai && isReasoningModel(target.modelId) ? 'max_completion_tokens' : 'max_tokens',
    maxTokens,
  );
  put(body, 'temperature', request.temperature);
  put(body, 'top_p', request.top_p);
  put(body, 'frequency_penalty', request.frequency_penalty);
  put(body, 'presence_penalty', request.presence_penalty);
  put(body, 'stop', typeof request.stop === 'string' ? [request.stop] : request.stop);
  put(body, dialect.seed ?? 'seed', request.seed);
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map(({ function: fn }) => ({
      type: 'function',
      function: {
        name: fn.name,
        ...(fn.description === undefined ? {} : { description: fn.description }),
        parameters: fn.parameters ?? { type: 'object', properties: {} },
        ...(fn.strict === undefined ? {} : { strict: fn.strict }),
      },
    }));
  }
  put(
    body,
    'tool_choice',
    request.tool_choice === 'required' ? (dialect.requiredChoice ?? 'required') : request.tool_choice,
  );
  if (request.parallel_tool_calls === false) body.parallel_tool_calls = false;
  const format = request.response_format;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  else if (format?.type === 'json_schema' && !dialect.openai) {
    // The compatible servers are asked for JSON only, as the AI SDK asks them; the gateway checks the schema.
    body.response_format = { type: 'json_object' };
  } else if (format?.type === 'json_schema') {
    const spec = format.json_schema;
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: spec.name,
        ...(spec.description === undefined ? {} : { description: spec.description }),
        schema: spec.schema,
        // Strict unless the request says otherwise, as the AI SDK asks.
        strict: spec.strict ?? true,
      },
    };
  }
  put(body, 'reasoning_effort', request.reasoning_effort);
  if (dialect.openai) {
    // OpenAI's own request facts go to OpenAI only (docs/gateway.md, "Fields each target honours").
    put(body, 'user', request.user);
    put(body, 'store', request.store);
    put(body, 'metadata', request.metadata);
    put(body, 'service_tier', request.service_tier);
  }
  if (stream) {
    body.stream = true;
    // The usage comes in a last chunk only when asked for; verdict's streams always end with it.
    body.stream_options = { include_usage: true };
  }
  return body as JsonObject;
}

/** Tool-call ids by their index in a stream, so that later chunks (which carry only the index) find theirs. */
function chatDeltas(): (event: unknown) => WireDelta[] {
  const ids: string[] = [];
  const think = createThinkSplitter();
  return (event) => {
    const out: WireDelta[] = [];
    const choices = (event as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(choices)) return out;
    const choice = choices.find((item) => ((item as { index?: unknown } | null)?.index ?? 0) === 0) as
      | { delta?: Record<string, unknown>; finish_reason?: unknown }
      | undefined;
    const delta = choice?.delta;
    if (delta === null || typeof delta !== 'object') {
      if (typeof choice?.finish_reason === 'string') think.flush(out);
      return out;
    }
    for (const key of ['reasoning_content', 'reasoning'] as const) {
      const value = delta[key];
      if (typeof value === 'string' && value !== '') out.push({ type: 'reasoning', text: value });
    }
    if (typeof delta.content === 'string' && delta.content !== '') think.push(delta.content, out);
    else if (Array.isArray(delta.content)) {
      // Mistral streams content as parts: text, and `thinking` from its reasoning models.
      for (const part of delta.content as { type?: unknown; text?: unknown }[]) {
        if (part?.type === 'text' && typeof part.text === 'string' && part.text !== '')
          think.push(part.text, out);
      }
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const item of delta.tool_calls as Record<string, unknown>[]) {
        if (item === null || typeof item !== 'object') continue;
        const index = typeof item.index === 'number' ? item.index : ids.length;
        const fn = (item.function ?? {}) as { name?: unknown; arguments?: unknown };
        let id = ids[index];
        if (id === undefined && typeof item.id === 'string') {
          id = item.id;
          ids[index] = id;
          out.push({ type: 'tool_call_start', id, name: typeof fn.name === 'string' ? fn.name : '' });
        }
        if (id !== undefined && typeof fn.arguments === 'string' && fn.arguments !== '') {
          out.push({ type: 'tool_call_delta', id, arguments: fn.arguments });
        }
      }
    }
    if (typeof choice?.finish_reason === 'string') think.flush(out);
    return out;
  };
}

/** The Chat Completions wire format of one dialect, read by the normalizer of `format`. */
function createChatFormat(format: UnifiedFormat, dialect: ChatDialect): WireFormat {
  return {
    format,
    buildRequest(request, target): WireRequestBuild {
      // provider_options are the AI SDK's providerOptions, whose meaning is the SDK's own: that SDK sends them.
      if (request.provider_options !== undefined && Object.keys(request.provider_options).length > 0) {
        return { ok: false, reason: 'provider_options' };
      }
      const stream = request.stream === true;
      return {
        ok: true,
        request: {
          path: '/chat/completions',
          headers: {},
          body: chatBody(request, target, dialect, stream),
          stream,
        },
      };
    },
    readAnswer(answer, context) {
      return normalizeResponse({
        format,
        provider: context.provider,
        traceId: context.traceId,
        status: answer.status,
        headers: answer.headers,
        body: answer.body,
        latencyMs: context.latencyMs,
      });
    },
    openStream(context) {
      return readWireStream(format, chatDeltas(), context);
    },
  };
}

/** Chat Completions as OpenAI's own API speaks it. */
export const openAiChatWire = createChatFormat('openai.chat', { openai: true });

/** Chat Completions as the OpenAI-compatible servers speak it (Groq, DeepSeek, Together, Ollama…). */
export const compatibleChatWire = createChatFormat('openai-compatible.chat', { openai: false });

/** Chat Completions as Mistral speaks it: the compatible dialect with `random_seed` and `tool_choice: "any"`. */
export const mistralChatWire = createChatFormat('openai-compatible.chat', {
  openai: false,
  seed: 'random_seed',
  requiredChoice: 'any',
});

/** Chat Completions as OpenRouter speaks it: the compatible dialect, read with OpenRouter's own facts. */
export const openRouterChatWire = createChatFormat('openrouter.chat', { openai: false });
