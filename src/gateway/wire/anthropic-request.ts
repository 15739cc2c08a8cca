import { FILE_TYPES, splitDataUrl } from '../request/chat-request.js';
import type { ChatMessage, ChatUserPart } from '../request/chat-request-schema.js';
import type { TextRequest } from '../request/request-schemas.js';
import { definedMembers, type NativeRequestBuild } from './native-request.js';
import { claudeThinkingFor } from './reasoning-budget.js';
import {
  checkTools,
  maxTokensOf,
  parseJsonText,
  providerOptionsOf,
  RequestProblems,
  textOfContent,
} from './request-problems.js';

/**
 * verdict's text request as an Anthropic Messages request (`POST /messages`): system text as `system`, the
 * conversation as alternating user and assistant turns (consecutive turns of one side merged, as the API
 * requires), tools with their `tool_choice`, the reasoning effort as a `thinking` budget and a JSON schema
 * answer as `output_config.format` (docs/design.md, "Native wire formats"). What the AI SDK's Anthropic
 * provider rewrites in ways of its own (adaptive thinking, a JSON answer asked for as a tool call, forced tool
 * use a model does not take, system text in mid-conversation) keeps the AI SDK's path.
 */

/** The Messages API version the gateway speaks, sent as `anthropic-version`. */
export const ANTHROPIC_API_VERSION = '2023-06-01';

/** The API feature that turns on PDF documents in a request. */
const PDF_BETA = 'pdfs-2024-09-25';
/** The API feature under which tools are strict and answers follow a JSON schema. */
const STRUCTURED_OUTPUTS_BETA = 'structured-outputs-2025-11-13';

/**
 * The `anthropic` provider options the native path reads, by the AI SDK's name (which `provider_options`
 * uses). A request with any other `anthropic` option keeps the AI SDK's path.
 */
const READ_OPTIONS = new Set(['disableParallelToolUse', 'thinking', 'toolStreaming', 'sendReasoning']);

/** What the request builder must know of a Claude model. */
interface ClaudeModel {
  /** The largest answer it gives, the `max_tokens` of a request that sets none. */
  readonly maxOutputTokens: number;
  /** True when it answers in a JSON schema natively (`output_config.format`) and takes strict tools. */
  readonly structuredOutput: boolean;
  /** True when it thinks adaptively (an effort rather than a budget). */
  readonly adaptive: boolean;
  /** False when it takes no temperature, top-p or top-k. */
  readonly sampling: boolean;
  /** False when it cannot be made to call a tool (`tool_choice` `any` or a named tool). */
  readonly forcedToolUse: boolean;
  /** True when its limits are known, so that `max_tokens` is held to its largest answer. */
  readonly known: boolean;
}

const LEGACY: ClaudeModel = {
  maxOutputTokens: 4096,
  structuredOutput: false,
  adaptive: false,
  sampling: true,
  forcedToolUse: true,
  known: true,
};
/** The models of the current generation, which think adaptively. */
const CURRENT: ClaudeModel = { ...LEGACY, maxOutputTokens: 128_000, structuredOutput: true, adaptive: true };
const CURRENT_WITHOUT_SAMPLING: ClaudeModel = { ...CURRENT, sampling: false };

/**
 * The facts of Claude models by id, first match wins; they are the ones the AI SDK's Anthropic provider holds,
 * so that a request that sets no `max_tokens` asks for the same on both paths.
 */
const CLAUDE_MODELS: readonly [(modelId: string) => boolean, ClaudeModel][] = [
  [
    (id) => /claude-(?:sonnet|opus)-5-5|claude-fable-5-[12]/.test(id),
    { ...CURRENT_WITHOUT_SAMPLING, forcedToolUse: false },
  ],
  [(id) => /claude-(?:haiku-5-5|opus-5|fable-5)/.test(id), CURRENT_WITHOUT_SAMPLING],
  [(id) => /claude-(?:opus-4-8|opus-4-7|sonnet-5)/.test(id), CURRENT_WITHOUT_SAMPLING],
  [(id) => /claude-(?:sonnet|opus)-4-6/.test(id), CURRENT],
  [
    (id) => /claude-(?:sonnet|opus|haiku)-4-5/.test(id),
    { ...LEGACY, maxOutputTokens: 64_000, structuredOutput: true },
  ],
  [(id) => id.includes('claude-opus-4-1'), { ...LEGACY, maxOutputTokens: 32_000, structuredOutput: true }],
  [(id) => /claude-sonnet-4(?:-|@)/.test(id), { ...LEGACY, maxOutputTokens: 64_000 }],
  [(id) => /claude-opus-4(?:-|@)/.test(id), { ...LEGACY, maxOutputTokens: 32_000 }],
  [(id) => id.includes('claude-3-haiku'), LEGACY],
  [(id) => /claude-(?:instant(?:-|$)|v?2(?=$|[-.:])|3(?=$|[-.]))/.test(id), { ...LEGACY, known: false }],
];

/** What the gateway knows of a Claude model from its id; an id it does not know is taken as a current model. */
export function claudeModelOf(modelId: string): ClaudeModel {
  const found = CLAUDE_MODELS.find(([matches]) => matches(modelId))?.[1];
  if (found !== undefined) return found;
  return modelId.includes('claude-')
    ? { ...CURRENT_WITHOUT_SAMPLING, known: false }
    : { ...LEGACY, known: false };
}

type Block = Record<string, unknown>;

/** A turn being built: its side and its content blocks. */
interface Turn {
  readonly role: 'user' | 'assistant';
  readonly content: Block[];
  /** Of an assistant turn: the messages merged into it, each as its blocks (their order is settled at the end). */
  readonly messages?: Block[][];
}

/** A base64 text file's text, read as UTF-8. */
function decodeText(base64: string): string {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return new TextDecoder().decode(bytes);
}

/** A user part as a content block, or `undefined` (with a problem) when it cannot be sent. */
function userBlock(
  part: ChatUserPart,
  at: (string | number)[],
  problems: RequestProblems,
  betas: Set<string>,
): Block | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image_url': {
      const data = splitDataUrl(part.image_url.url);
      if (data === undefined)
        return { type: 'image', source: { type: 'url', url: new URL(part.image_url.url).toString() } };
      return { type: 'image', source: { type: 'base64', media_type: data.mediaType, data: data.data } };
    }
    case 'input_audio':
      problems.refuse(at, 'input_audio parts');
      return undefined;
    case 'file': {
      const inline = splitDataUrl(part.file.file_data);
      const mediaType = part.file.media_type ?? inline?.mediaType;
      if (mediaType === undefined) {
        problems.problem([...at, 'file', 'media_type'], 'A file given as bare base64 needs its media_type.');
        return undefined;
      }
      const taken = FILE_TYPES.anthropic ?? [];
      if (!taken.includes(mediaType)) {
        problems.refuse(at, `${mediaType} files (it takes ${taken.join(', ')})`);
        return undefined;
      }
      const data = inline?.data ?? part.file.file_data;
      if (mediaType === 'application/pdf') betas.add(PDF_BETA);
      return definedMembers({
        type: 'document',
        source:
          mediaType === 'application/pdf'
            ? { type: 'base64', media_type: 'application/pdf', data }
            : { type: 'text', media_type: 'text/plain', data: decodeText(data) },
        title: part.file.filename,
      });
    }
  }
}

/** A replayed call's arguments as the object `tool_use.input` takes; anything else is kept as it came. */
function toolInput(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? value
    : { rawInvalidInput: value };
}

/**
 * The conversation as Messages turns, and the system text that leads it; `undefined` (the request keeps the AI
 * SDK's path) when system text comes after the conversation started.
 */
function turnsOf(
  list: readonly ChatMessage[],
  base: string,
  system: string[],
  problems: RequestProblems,
  betas: Set<string>,
): Turn[] | undefined {
  const names = new Map<string, string>();
  const turns: Turn[] = [];
  let late = false;
  /** The turn of `role`, continuing the last one when it is of the same side. */
  const turn = (role: Turn['role']): Turn => {
    const last = turns.at(-1);
    if (last?.role === role) return last;
    const next: Turn = role === 'assistant' ? { role, content: [], messages: [] } : { role, content: [] };
    turns.push(next);
    return next;
  };
  list.forEach((message, index) => {
    const at: (string | number)[] = [base, index];
    switch (message.role) {
      case 'system':
      case 'developer':
        if (turns.length > 0) late = true;
        else system.push(textOfContent(message.content));
        return;
      case 'user': {
        const content = turn('user').content;
        if (typeof message.content === 'string') content.push({ type: 'text', text: message.content });
        else
          message.content.forEach((part, partIndex) => {
            const block = userBlock(part, [...at, 'content', partIndex], problems, betas);
            if (block !== undefined) content.push(block);
          });
        return;
      }
      case 'assistant': {
        const text = textOfContent(message.content);
        if (text === '' && message.tool_calls === undefined)
          problems.problem([...at, 'content'], 'An assistant message needs content or tool_calls.');
        const blocks: Block[] = text === '' ? [] : [{ type: 'text', text }];
        (message.tool_calls ?? []).forEach((call, callIndex) => {
          const args = parseJsonText(call.function.arguments);
          if (args === undefined) {
            problems.problem(
              [...at, 'tool_calls', callIndex, 'function', 'arguments'],
              'Must be a JSON text, as the model gave it.',
            );
            return;
          }
          names.set(call.id, call.function.name);
          blocks.push({
            type: 'tool_use',
            id: call.id,
            name: call.function.name,
            input: toolInput(args.value),
          });
        });
        turn('assistant').messages?.push(blocks);
        return;
      }
      case 'tool': {
        if (!names.has(message.tool_call_id)) {
          problems.problem(
            [...at, 'tool_call_id'],
            'No earlier assistant message has a tool call with this id.',
          );
          return;
        }
        const text = textOfContent(message.content);
        const json = parseJsonText(text);
        // A result that is a JSON object or list is sent as its JSON text, as the AI SDK sends it.
        const content =
          json !== undefined && json.value !== null && typeof json.value === 'object'
            ? JSON.stringify(json.value)
            : text;
        turn('user').content.push({ type: 'tool_result', tool_use_id: message.tool_call_id, content });
        return;
      }
    }
  });
  if (late) return undefined;
  const lastTurn = turns.at(-1);
  for (const each of turns) {
    if (each.messages === undefined) continue;
    each.messages.forEach((blocks, index) => {
      const answered = each === lastTurn && index === (each.messages?.length ?? 0) - 1;
      const final = blocks.at(-1);
      // The last words of a prefilled answer are sent trimmed: the API refuses them ending in white space.
      if (answered && final?.type === 'text' && typeof final.text === 'string')
        blocks[blocks.length - 1] = { ...final, text: final.text.trim() };
    });
    const blocks = each.messages.flat();
    // Tool calls go after the text of the turn, as the API expects them.
    each.content.push(
      ...blocks.filter((block) => block.type !== 'tool_use'),
      ...blocks.filter((block) => block.type === 'tool_use'),
    );
  }
  // An assistant turn with nothing to say is left out.
  return turns.filter((each) => each.role === 'user' || each.content.length > 0);
}

/** The members a schema may hold for the API to take it with no more than its objects closed. */
const PLAIN_SCHEMA_MEMBERS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'description',
  'title',
  'anyOf',
  'allOf',
  'default',
]);

/** The most optional properties a schema may hold for Anthropic's structured outputs. */
const MAX_OPTIONAL_PROPERTIES = 10;

/**
 * A JSON schema as Anthropic's structured outputs take it, when it is one they take with no more change than
 * its objects closed (`additionalProperties: false`, which the API requires): objects that name their
 * properties, no more than ten optional properties, and none of the keywords the AI SDK rewrites or moves into
 * descriptions (references, formats, numeric and length bounds…). `undefined` for any other schema, which
 * keeps the AI SDK's path.
 */
function plainSchemaOf(schema: unknown): Record<string, unknown> | undefined {
  let optional = 0;
  const close = (node: unknown): Record<string, unknown> | undefined => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    const record = node as Record<string, unknown>;
    if (Object.keys(record).some((key) => !PLAIN_SCHEMA_MEMBERS.has(key))) return undefined;
    const { type, properties, required, additionalProperties, items, anyOf, allOf } = record;
    const object = type === 'object' || (Array.isArray(type) && type.includes('object'));
    const out: Record<string, unknown> = { ...record };
    if (object || properties !== undefined) {
      // An object without named properties is open: the API would close it to `{}`.
      if (properties === undefined || (additionalProperties !== undefined && additionalProperties !== false))
        return undefined;
      if (properties === null || typeof properties !== 'object' || Array.isArray(properties))
        return undefined;
      const needed = new Set(Array.isArray(required) ? required : []);
      const closed: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(properties)) {
        if (!needed.has(name)) optional++;
        const each = close(member);
        if (each === undefined) return undefined;
        closed[name] = each;
      }
      out.properties = closed;
      out.additionalProperties = false;
    } else if (required !== undefined || additionalProperties !== undefined) return undefined;
    if (items !== undefined) {
      const each = close(items);
      if (each === undefined) return undefined;
      out.items = each;
    }
    for (const key of ['anyOf', 'allOf'] as const) {
      const list = key === 'anyOf' ? anyOf : allOf;
      if (list === undefined) continue;
      if (!Array.isArray(list)) return undefined;
      const each = list.map(close);
      if (each.some((member) => member === undefined)) return undefined;
      out[key] = each;
    }
    return out;
  };
  const closed = close(schema);
  return optional <= MAX_OPTIONAL_PROPERTIES ? closed : undefined;
}

/** The `thinking` option of a request, when it is one the native path sends as it is. */
function thinkingOption(
  value: unknown,
): { type: 'disabled' } | { type: 'enabled'; budget_tokens: number } | 'other' {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'other';
  const { type, budgetTokens, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return 'other';
  if (type === 'disabled' && budgetTokens === undefined) return { type: 'disabled' };
  if (type === 'enabled' && typeof budgetTokens === 'number' && Number.isInteger(budgetTokens))
    return { type: 'enabled', budget_tokens: budgetTokens };
  return 'other';
}

/**
 * Build the Anthropic Messages request for a text request to `modelId` at provider `provider`.
 * @example
 * buildMessagesRequest({ model: 'anthropic:claude-sonnet-4-5', input: 'Hi' }, 'anthropic', 'claude-sonnet-4-5')
 * // → { ok: true, request: { path: '/messages', body: { model: 'claude-sonnet-4-5', max_tokens: 64000, … } } }
 */
export function buildMessagesRequest(
  request: TextRequest,
  provider: string,
  modelId: string,
): NativeRequestBuild {
  const problems = new RequestProblems(provider, 'anthropic');
  for (const key of ['seed', 'presence_penalty', 'frequency_penalty'] as const)
    problems.refused(key, request[key]);
  if (request.service_tier !== undefined && !['auto', 'default'].includes(request.service_tier))
    problems.refuse(['service_tier'], `"service_tier": "${request.service_tier}"`);
  checkTools(request, problems);
  const options = providerOptionsOf(request, 'anthropic', problems) ?? {};
  const betas = new Set<string>();
  const system = request.system === undefined ? [] : [request.system];
  const conversation = request.messages ?? request.input ?? '';
  const turns =
    typeof conversation === 'string'
      ? [{ role: 'user' as const, content: [{ type: 'text', text: conversation }] }]
      : turnsOf(conversation, request.messages === undefined ? 'input' : 'messages', system, problems, betas);
  if (problems.list.length > 0) return { ok: false, problems: problems.list };
  if (turns === undefined)
    return { ok: 'sdk', reason: 'system text after the conversation started is sent as the AI SDK sends it' };
  const untranslated = Object.keys(options).find((key) => !READ_OPTIONS.has(key));
  if (untranslated !== undefined)
    return {
      ok: 'sdk',
      reason: `the provider option anthropic.${untranslated} is the AI SDK's to translate`,
    };

  const model = claudeModelOf(modelId);
  const asked = options.thinking === undefined ? undefined : thinkingOption(options.thinking);
  if (asked === 'other') return { ok: 'sdk', reason: 'a thinking option the AI SDK translates' };
  if (model.adaptive && (asked !== undefined || request.reasoning_effort !== undefined))
    return { ok: 'sdk', reason: `${modelId} thinks adaptively, which the AI SDK asks for` };
  const thinking =
    asked ??
    (request.reasoning_effort === undefined
      ? undefined
      : claudeThinkingFor(model.maxOutputTokens, request.reasoning_effort));
  const thinkingOn = thinking?.type === 'enabled';

  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  const forced = choice === 'required' || (choice !== undefined && typeof choice !== 'string');
  if (forced && (!model.forcedToolUse || thinkingOn))
    return { ok: 'sdk', reason: 'a forced tool choice this model or its thinking does not take' };
  const format = request.response_format;
  const schema = format?.type === 'json_schema' ? format.json_schema.schema : undefined;
  const answerSchema = schema === undefined ? undefined : plainSchemaOf(schema);
  if (schema !== undefined && (!model.structuredOutput || answerSchema === undefined))
    return { ok: 'sdk', reason: 'a JSON schema answer the AI SDK asks for as a tool call or rewrites' };

  const stream = request.stream === true;
  const eager = stream && options.toolStreaming !== false;
  const disableParallel =
    options.disableParallelToolUse === true || request.parallel_tool_calls === false ? true : undefined;
  const declared =
    tools.length === 0
      ? undefined
      : tools.map(({ function: fn }) =>
          definedMembers({
            name: fn.name,
            description: fn.description,
            input_schema: fn.parameters ?? { type: 'object', properties: {} },
            eager_input_streaming: eager ? true : undefined,
            strict: model.structuredOutput ? fn.strict : undefined,
          }),
        );
  if (declared !== undefined && model.structuredOutput) betas.add(STRUCTURED_OUTPUTS_BETA);
  // The model may call tools unless told otherwise; the choice is said even when it is the default.
  const toolChoice =
    declared === undefined
      ? undefined
      : choice === 'none'
        ? { type: 'none' }
        : definedMembers({
            type: choice === undefined || choice === 'auto' ? 'auto' : choice === 'required' ? 'any' : 'tool',
            name: choice === undefined || typeof choice === 'string' ? undefined : choice.function.name,
            disable_parallel_tool_use: disableParallel,
          });

  // Sampling settings: the temperature held between 0 and 1; none for a model that takes none or while it
  // thinks; and top-p left out beside a temperature, which Claude models refuse together.
  let temperature =
    request.temperature === undefined ? undefined : Math.min(1, Math.max(0, request.temperature));
  let topP = request.top_p;
  let topK = request.top_k;
  if (!model.sampling || thinkingOn) {
    temperature = undefined;
    topP = undefined;
    topK = undefined;
  } else if (temperature !== undefined && (model.known || modelId.includes('claude-'))) topP = undefined;
  const budget = thinking?.type === 'enabled' ? thinking.budget_tokens : 0;
  let maxTokens = (maxTokensOf(request) ?? model.maxOutputTokens) + budget;
  if (model.known) maxTokens = Math.min(maxTokens, model.maxOutputTokens);

  const body = definedMembers({
    model: modelId,
    max_tokens: maxTokens,
    temperature,
    top_k: topK,
    top_p: topP,
    stop_sequences:
      request.stop === undefined
        ? undefined
        : typeof request.stop === 'string'
          ? [request.stop]
          : request.stop,
    thinking,
    output_config:
      answerSchema === undefined ? undefined : { format: { type: 'json_schema', schema: answerSchema } },
    system: system.length === 0 ? undefined : system.map((text) => ({ type: 'text', text })),
    messages: turns.map(({ role, content }) => ({ role, content })),
    tools: declared,
    tool_choice: toolChoice,
    stream: stream ? true : undefined,
  });
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_API_VERSION };
  if (betas.size > 0) headers['anthropic-beta'] = [...betas].join(',');
  return { ok: true, request: { path: '/messages', headers, body, stream } };
}
