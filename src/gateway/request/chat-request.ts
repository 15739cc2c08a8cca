import {
  type FilePart,
  type ImagePart,
  type JSONValue,
  jsonSchema,
  type ModelMessage,
  type OutputInterface,
  type TextPart,
  type ToolCallPart,
  type ToolSet,
  tool,
} from 'ai';
import { pointerOf } from '../../json/json-pointer.js';
import { isJsonObjectValue, isJsonSchema, isJsonValue, type JsonObject } from '../basics/json-value.js';
import type { ProviderType } from '../config/config.js';
import type { ConfigProblem } from '../config/config-problem.js';
import type { ChatMessage, ChatUserPart } from './chat-request-schema.js';
import type { TextRequest } from './request-schemas.js';

/**
 * The text request (docs/gateway.md, "The text request") translated to the AI SDK: messages with their parts,
 * tools, tool choice, structured output and sampling options, after checking that the target provider takes
 * every part and option the request holds. Nothing is dropped silently: what a provider cannot take is a
 * problem naming the provider and the member.
 */

/** The wire formats the gateway knows how to check a request against. */
export type ChatFamily =
  | 'openai.chat'
  | 'openai.responses'
  | 'anthropic'
  | 'google'
  | 'openai-compatible'
  | 'other';

/** The family of a provider type and the AI SDK model's own provider id (`openai.responses`…). */
export function chatFamilyOf(type: ProviderType | string, modelProvider: unknown): ChatFamily {
  if (type === 'openai') {
    return typeof modelProvider === 'string' && modelProvider.endsWith('.responses')
      ? 'openai.responses'
      : 'openai.chat';
  }
  if (type === 'anthropic' || type === 'google' || type === 'openai-compatible') return type;
  return 'other';
}

/** What a family cannot take; the reason completes "<provider> (<family>) …". */
export type Refusable =
  | 'input_audio'
  | 'seed'
  | 'presence_penalty'
  | 'frequency_penalty'
  | 'stop'
  | 'top_k'
  | 'parallel_tool_calls';

export const REFUSED: Readonly<Record<ChatFamily, ReadonlySet<Refusable>>> = {
  // OpenAI's APIs have no top-k sampling (the AI SDK drops it with a warning), so it is refused, not dropped.
  'openai.chat': new Set(['top_k']),
  'openai.responses': new Set([
    'input_audio',
    'seed',
    'presence_penalty',
    'frequency_penalty',
    'stop',
    'top_k',
  ]),
  anthropic: new Set(['input_audio', 'seed', 'presence_penalty', 'frequency_penalty']),
  // Gemini 2.5 on the Gemini API ignores penalties (the AI SDK drops them with a warning), so none are sent.
  google: new Set(['parallel_tool_calls', 'presence_penalty', 'frequency_penalty']),
  'openai-compatible': new Set(['parallel_tool_calls', 'top_k']),
  other: new Set(['input_audio', 'parallel_tool_calls']),
};

/**
 * The options of a text request a client may set beside its messages, as `GET /v1/models` names them per
 * provider (`text_options`); the console offers a route only the ones its provider takes.
 */
export const TEXT_OPTIONS = [
  'temperature',
  'top_p',
  'top_k',
  'max_output_tokens',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'reasoning_effort',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'provider_options',
] as const;

/** One option of {@link TEXT_OPTIONS}. */
export type TextOption = (typeof TEXT_OPTIONS)[number];

/** The text options a family takes: every one of {@link TEXT_OPTIONS} but those it refuses. */
export function textOptionsOf(family: ChatFamily): TextOption[] {
  const refused: ReadonlySet<string> = REFUSED[family];
  return TEXT_OPTIONS.filter((option) => !refused.has(option));
}

/** Media types of `file` parts each family takes; `undefined` means any. */
export const FILE_TYPES: Readonly<Record<ChatFamily, readonly string[] | undefined>> = {
  'openai.chat': ['application/pdf'],
  'openai.responses': ['application/pdf'],
  anthropic: ['application/pdf', 'text/plain'],
  google: undefined,
  'openai-compatible': ['application/pdf'],
  other: [],
};

/** The AI SDK call options a text request translates to (everything but the model and transport). */
export interface ChatCall {
  /** The prompt, or the messages of the conversation. */
  prompt: string | ModelMessage[];
  /** Set for a message list, which may hold system messages. */
  allowSystemInMessages?: boolean;
  /** The request's `system`. */
  instructions?: string;
  /** The request's `tools`, without `execute`: the gateway never runs a tool. */
  tools?: ToolSet;
  /** The request's `tool_choice`. */
  toolChoice?: 'auto' | 'none' | 'required' | { type: 'tool'; toolName: string };
  /** The structured-output request of `response_format`. */
  output?: OutputInterface<string, string, never>;
  /** `temperature`. */
  temperature?: number;
  /** `top_p`. */
  topP?: number;
  /** `top_k`. */
  topK?: number;
  /** `stop`. */
  stopSequences?: string[];
  /** `seed`. */
  seed?: number;
  /** `presence_penalty`. */
  presencePenalty?: number;
  /** `frequency_penalty`. */
  frequencyPenalty?: number;
  /** `max_output_tokens` or `max_tokens`. */
  maxOutputTokens?: number;
  /** `reasoning_effort`. */
  reasoning?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  /** `provider_options`, with the options the gateway sets for `parallel_tool_calls`. */
  providerOptions?: Record<string, JsonObject>;
  /** Keeps every URL a URL: the gateway downloads nothing. */
  experimental_download: (requests: readonly unknown[]) => Promise<null[]>;
}

/** The translation of a request for one target, or the problems that keep it from that target. */
export type ChatTranslation = { ok: true; call: ChatCall } | { ok: false; problems: ConfigProblem[] };

/** Image types by the extension of a URL's path. */
export const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
};

/** A `data:` URL split into its media type and base64 bytes. */
export function splitDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/s.exec(url);
  return match === null ? undefined : { mediaType: match[1] as string, data: match[2] as string };
}

function textOf(content: string | readonly { text: string }[] | null | undefined): string {
  if (content === undefined || content === null) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

/** A JSON text's value, or undefined when it is not JSON. */
function parseJson(text: string): { value: JSONValue } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonValue(value) ? { value } : undefined;
  } catch {
    return undefined;
  }
}

/** The gateway never downloads a URL itself (it would be an SSRF door): every URL goes to the provider. */
async function neverDownload(requests: readonly unknown[]): Promise<null[]> {
  return requests.map(() => null);
}

class Translation {
  readonly problems: ConfigProblem[] = [];
  constructor(
    readonly provider: string,
    readonly family: ChatFamily,
  ) {}

  refuse(path: (string | number)[], what: string): void {
    this.problems.push({
      path: pointerOf(...path),
      message: `Provider "${this.provider}" (${this.family}) does not take ${what}.`,
    });
  }

  problem(path: (string | number)[], message: string): void {
    this.problems.push({ path: pointerOf(...path), message });
  }

  userPart(part: ChatUserPart, at: (string | number)[]): TextPart | ImagePart | FilePart | undefined {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image_url': {
        const data = splitDataUrl(part.image_url.url);
        if (data === undefined) {
          const url = new URL(part.image_url.url);
          const mediaType = IMAGE_EXTENSIONS[/\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase() ?? ''];
          // Gemini takes a URL as a file reference, which must name its image type.
          if (mediaType === undefined && this.family === 'google') {
            this.refuse(at, 'image URLs whose path does not end in .png, .jpg, .jpeg, .webp, .gif or .heic');
            return undefined;
          }
          return { type: 'image', image: url, ...(mediaType === undefined ? {} : { mediaType }) };
        }
        return { type: 'image', image: data.data, mediaType: data.mediaType };
      }
      case 'input_audio': {
        if (REFUSED[this.family].has('input_audio')) {
          this.refuse(at, 'input_audio parts');
          return undefined;
        }
        const mediaType = part.input_audio.format === 'mp3' ? 'audio/mpeg' : 'audio/wav';
        return { type: 'file', data: part.input_audio.data, mediaType };
      }
      case 'file': {
        const inline = splitDataUrl(part.file.file_data);
        const mediaType = part.file.media_type ?? inline?.mediaType;
        if (mediaType === undefined) {
          this.problem([...at, 'file', 'media_type'], 'A file given as bare base64 needs its media_type.');
          return undefined;
        }
        const taken = FILE_TYPES[this.family];
        if (taken !== undefined && !taken.includes(mediaType)) {
          this.refuse(
            at,
            taken.length === 0 ? 'file parts' : `${mediaType} files (it takes ${taken.join(', ')})`,
          );
          return undefined;
        }
        return {
          type: 'file',
          data: inline?.data ?? part.file.file_data,
          mediaType,
          ...(part.file.filename === undefined ? {} : { filename: part.file.filename }),
        };
      }
    }
  }

  /** The messages, with each tool result tied to the name of the call it answers. */
  messages(list: readonly ChatMessage[], base: string): ModelMessage[] {
    const callNames = new Map<string, string>();
    const out: ModelMessage[] = [];
    list.forEach((message, index) => {
      const at: (string | number)[] = [base, index];
      switch (message.role) {
        case 'system':
        case 'developer':
          out.push({ role: 'system', content: textOf(message.content) });
          return;
        case 'user': {
          if (typeof message.content === 'string') {
            out.push({ role: 'user', content: message.content });
            return;
          }
          const parts = message.content.flatMap((part, partIndex) => {
            const converted = this.userPart(part, [...at, 'content', partIndex]);
            return converted === undefined ? [] : [converted];
          });
          out.push({ role: 'user', content: parts });
          return;
        }
        case 'assistant': {
          const text = textOf(message.content);
          const calls: ToolCallPart[] = (message.tool_calls ?? []).flatMap((call, callIndex) => {
            const input = parseJson(call.function.arguments);
            if (input === undefined) {
              this.problem(
                [...at, 'tool_calls', callIndex, 'function', 'arguments'],
                'Must be a JSON text, as the model gave it.',
              );
              return [];
            }
            callNames.set(call.id, call.function.name);
            return [
              { type: 'tool-call', toolCallId: call.id, toolName: call.function.name, input: input.value },
            ];
          });
          if (text === '' && calls.length === 0 && message.tool_calls === undefined) {
            this.problem([...at, 'content'], 'An assistant message needs content or tool_calls.');
          }
          out.push({
            role: 'assistant',
            content: [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...calls],
          });
          return;
        }
        case 'tool': {
          const toolName = callNames.get(message.tool_call_id);
          if (toolName === undefined) {
            this.problem(
              [...at, 'tool_call_id'],
              'No earlier assistant message has a tool call with this id.',
            );
            return;
          }
          const text = textOf(message.content);
          const json = parseJson(text);
          out.push({
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: message.tool_call_id,
                toolName,
                output:
                  json !== undefined && json.value !== null && typeof json.value === 'object'
                    ? { type: 'json', value: json.value }
                    : { type: 'text', value: text },
              },
            ],
          });
          return;
        }
      }
    });
    return out;
  }
}

/** The structured-output spec of a `response_format`: the provider is asked for JSON; the gateway checks it. */
function outputOf(
  format: NonNullable<TextRequest['response_format']>,
): OutputInterface<string, string, never> | undefined {
  if (format.type === 'text') return undefined;
  const schema = format.type === 'json_schema' ? format.json_schema.schema : undefined;
  const responseFormat =
    format.type === 'json_object' || !isJsonSchema(schema)
      ? { type: 'json' as const }
      : {
          type: 'json' as const,
          schema,
          name: format.json_schema.name,
          ...(format.json_schema.description === undefined
            ? {}
            : { description: format.json_schema.description }),
        };
  return {
    name: 'object',
    responseFormat: Promise.resolve(responseFormat),
    // The text is kept as it came: the gateway parses and checks it itself, so that a broken answer is a
    // failure naming what is wrong (src/gateway/pipeline/structured-output.ts).
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async ({ text }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}

/** The AI SDK's providerOptions key of a family's own options. */
function optionsKey(family: ChatFamily, provider: string): string {
  if (family === 'openai.chat' || family === 'openai.responses') return 'openai';
  if (family === 'anthropic' || family === 'google') return family;
  return provider;
}

/**
 * Translate a text request for one target (`provider` is the configured id, `family` its wire format). The
 * problems name the member by JSON Pointer and the provider that cannot take it.
 */
export function toChatCall(body: TextRequest, provider: string, family: ChatFamily): ChatTranslation {
  const t = new Translation(provider, family);
  const conversation = body.messages ?? body.input ?? '';
  const call: ChatCall = {
    prompt:
      typeof conversation === 'string'
        ? conversation
        : t.messages(conversation, body.messages === undefined ? 'input' : 'messages'),
    experimental_download: neverDownload,
  };
  if (typeof conversation !== 'string') {
    // A request's list may hold system messages; the AI SDK refuses them unless told otherwise.
    call.allowSystemInMessages = true;
  }
  if (body.system !== undefined) call.instructions = body.system;
  if (body.temperature !== undefined) call.temperature = body.temperature;
  const maxTokens = body.max_output_tokens ?? body.max_tokens ?? body.max_completion_tokens;
  if (maxTokens !== undefined) call.maxOutputTokens = maxTokens;
  if (body.top_p !== undefined) call.topP = body.top_p;
  const refused = REFUSED[family];
  const option = <K extends Refusable>(key: K, value: unknown, set: () => void) => {
    if (value === undefined) return;
    if (refused.has(key)) t.refuse([key], `"${key}"`);
    else set();
  };
  option('stop', body.stop, () => {
    call.stopSequences = typeof body.stop === 'string' ? [body.stop] : [...(body.stop ?? [])];
  });
  option('top_k', body.top_k, () => {
    call.topK = body.top_k as number;
  });
  option('seed', body.seed, () => {
    call.seed = body.seed as number;
  });
  option('presence_penalty', body.presence_penalty, () => {
    call.presencePenalty = body.presence_penalty as number;
  });
  option('frequency_penalty', body.frequency_penalty, () => {
    call.frequencyPenalty = body.frequency_penalty as number;
  });
  if (body.reasoning_effort !== undefined) call.reasoning = body.reasoning_effort;

  const own: Record<string, JSONValue> = {};
  if (body.tools !== undefined && body.tools.length > 0) {
    const tools: ToolSet = {};
    body.tools.forEach((entry, index) => {
      const fn = entry.function;
      if (tools[fn.name] !== undefined) {
        t.problem(['tools', index, 'function', 'name'], `Tool "${fn.name}" is declared twice.`);
      }
      tools[fn.name] = tool({
        ...(fn.description === undefined ? {} : { description: fn.description }),
        inputSchema: jsonSchema(
          isJsonSchema(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
        ),
        ...(fn.strict === undefined ? {} : { strict: fn.strict }),
      });
    });
    call.tools = tools;
  }
  if (body.tool_choice !== undefined) {
    if (typeof body.tool_choice === 'string') call.toolChoice = body.tool_choice;
    else {
      const name = body.tool_choice.function.name;
      if (call.tools?.[name] === undefined) {
        t.problem(['tool_choice', 'function', 'name'], `No tool named "${name}" is declared in "tools".`);
      }
      call.toolChoice = { type: 'tool', toolName: name };
    }
  }
  // The default everywhere is that the model may call several tools at once; only `false` needs the option.
  if (body.parallel_tool_calls === false) {
    if (refused.has('parallel_tool_calls')) t.refuse(['parallel_tool_calls'], '"parallel_tool_calls": false');
    else if (family === 'anthropic') own.disableParallelToolUse = true;
    else own.parallelToolCalls = false;
  }
  if (body.response_format !== undefined) {
    const output = outputOf(body.response_format);
    if (output !== undefined) call.output = output;
  }
  // OpenAI's own request facts go to OpenAI; other targets answer the same without them (docs/gateway.md,
  // "Fields each target honours"), except a processing tier they cannot give.
  const openai = family === 'openai.chat' || family === 'openai.responses';
  if (openai) {
    if (body.user !== undefined) own.user = body.user;
    if (body.store !== undefined) own.store = body.store;
    if (body.metadata !== undefined) own.metadata = body.metadata;
    if (body.service_tier !== undefined) own.serviceTier = body.service_tier;
  } else if (body.service_tier !== undefined && !['auto', 'default'].includes(body.service_tier)) {
    t.refuse(['service_tier'], `"service_tier": "${body.service_tier}"`);
  }
  const key = optionsKey(family, provider);
  const providerOptions: Record<string, JsonObject> = {};
  for (const [name, options] of Object.entries(body.provider_options ?? {})) {
    if (isJsonObjectValue(options)) providerOptions[name] = options;
    else t.problem(['provider_options', name], 'Must be a JSON object.');
  }
  if (Object.keys(own).length > 0) providerOptions[key] = { ...own, ...providerOptions[key] };
  if (Object.keys(providerOptions).length > 0) call.providerOptions = providerOptions;
  return t.problems.length > 0 ? { ok: false, problems: t.problems } : { ok: true, call };
}
