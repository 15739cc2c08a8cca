import { FILE_TYPES, splitDataUrl } from '../request/chat-request.js';
import type { ChatMessage, ChatUserPart } from '../request/chat-request-schema.js';
import type { TextRequest } from '../request/request-schemas.js';
import { definedMembers, type NativeRequestBuild } from './native-request.js';
import { openAiEffortFor, openAiReasoningOf } from './reasoning-budget.js';
import {
  checkTools,
  maxTokensOf,
  parseJsonText,
  providerOptionsOf,
  RequestProblems,
  textOfContent,
} from './request-problems.js';

/**
 * verdict's text request as an OpenAI Responses API request (`POST /responses`): the conversation as input
 * items, tools as function tools, `response_format` as `text.format`, and the reasoning effort as `reasoning`
 * for the reasoning models (docs/design.md, "Native wire formats").
 */

/**
 * The `openai` provider options the native path translates, by the AI SDK's name (which `provider_options`
 * uses) and the member of the request body it sets. A request with any other `openai` option keeps the AI
 * SDK's path.
 */
const OPTION_MEMBERS: Readonly<Record<string, string>> = {
  user: 'user',
  store: 'store',
  metadata: 'metadata',
  serviceTier: 'service_tier',
  parallelToolCalls: 'parallel_tool_calls',
  previousResponseId: 'previous_response_id',
  conversation: 'conversation',
  instructions: 'instructions',
  include: 'include',
  promptCacheKey: 'prompt_cache_key',
  promptCacheRetention: 'prompt_cache_retention',
  safetyIdentifier: 'safety_identifier',
  truncation: 'truncation',
  maxToolCalls: 'max_tool_calls',
};

/** Options read by the builder itself rather than copied to one member. */
const READ_OPTIONS = new Set(['reasoningEffort', 'reasoningSummary', 'textVerbosity', 'strictJsonSchema']);

type Item = Record<string, unknown>;

/**
 * Whether a model takes a processing tier: flex is for o3 and later and GPT-5 and later, priority for those
 * and GPT-4 (not GPT-5 nano). The AI SDK leaves an untaken tier out, so that the request is served at the
 * default tier instead of being refused, and so does the native path.
 */
function tierTaken(modelId: string, tier: unknown): boolean {
  if (tier !== 'flex' && tier !== 'priority') return true;
  const oSeries = Number(/^o(\d+)(?:-|$)/.exec(modelId)?.[1] ?? 0);
  const gpt = /^gpt-(\d+)(?:\.\d+)?(?:-(.+))?$/.exec(modelId);
  const major = Number(gpt?.[1] ?? 0);
  const variant = gpt?.[2];
  const chat = !/^gpt-\d+\.\d/.test(modelId) && (variant?.startsWith('chat') ?? false);
  const modern = oSeries >= 3 || (major >= 5 && !chat);
  if (tier === 'flex') return modern;
  return modelId.startsWith('gpt-4') || (modern && !(variant?.startsWith('nano') ?? false));
}

/** A user part as a Responses input content part, or `undefined` (with a problem) when it cannot be sent. */
function userPart(
  part: ChatUserPart,
  index: number,
  at: (string | number)[],
  problems: RequestProblems,
): Item | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image_url':
      // A URL goes to OpenAI as it is (the gateway downloads nothing); a data: URL is sent whole.
      return { type: 'input_image', image_url: part.image_url.url };
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
      const taken = FILE_TYPES['openai.responses'] ?? [];
      if (!taken.includes(mediaType)) {
        problems.refuse(at, `${mediaType} files (it takes ${taken.join(', ')})`);
        return undefined;
      }
      return {
        type: 'input_file',
        filename: part.file.filename ?? `part-${index}.pdf`,
        file_data: `data:${mediaType};base64,${inline?.data ?? part.file.file_data}`,
      };
    }
  }
}

/** The conversation as Responses input items; system text goes in as `system` or `developer` messages. */
function inputItems(
  list: readonly ChatMessage[],
  base: string,
  systemRole: string,
  problems: RequestProblems,
): Item[] {
  const calls = new Set<string>();
  const items: Item[] = [];
  list.forEach((message, index) => {
    const at: (string | number)[] = [base, index];
    switch (message.role) {
      case 'system':
      case 'developer':
        items.push({ role: systemRole, content: textOfContent(message.content) });
        return;
      case 'user': {
        const content =
          typeof message.content === 'string'
            ? [{ type: 'input_text', text: message.content }]
            : message.content.flatMap((part, partIndex) => {
                const item = userPart(part, partIndex, [...at, 'content', partIndex], problems);
                return item === undefined ? [] : [item];
              });
        items.push({ role: 'user', content });
        return;
      }
      case 'assistant': {
        const text = textOfContent(message.content);
        if (text === '' && message.tool_calls === undefined)
          problems.problem([...at, 'content'], 'An assistant message needs content or tool_calls.');
        if (text !== '') items.push({ role: 'assistant', content: text });
        (message.tool_calls ?? []).forEach((call, callIndex) => {
          if (parseJsonText(call.function.arguments) === undefined) {
            problems.problem(
              [...at, 'tool_calls', callIndex, 'function', 'arguments'],
              'Must be a JSON text, as the model gave it.',
            );
            return;
          }
          calls.add(call.id);
          items.push({
            type: 'function_call',
            call_id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
          });
        });
        return;
      }
      case 'tool':
        if (!calls.has(message.tool_call_id)) {
          problems.problem(
            [...at, 'tool_call_id'],
            'No earlier assistant message has a tool call with this id.',
          );
          return;
        }
        items.push({
          type: 'function_call_output',
          call_id: message.tool_call_id,
          output: textOfContent(message.content),
        });
        return;
    }
  });
  return items;
}

/** `response_format` as the Responses API's `text.format`. */
function textFormat(request: TextRequest, strict: boolean): Item | undefined {
  const format = request.response_format;
  if (format === undefined || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return definedMembers({
    type: 'json_schema',
    strict,
    name: format.json_schema.name,
    description: format.json_schema.description,
    schema: format.json_schema.schema,
  });
}

/**
 * Build the Responses API request for a text request to `modelId` at provider `provider`.
 * @example
 * buildResponsesRequest({ model: 'openai/gpt-4.1', input: 'Hi' }, 'openai', 'gpt-4.1')
 * // → { ok: true, request: { path: '/responses', body: { model: 'gpt-4.1', input: [...] }, … } }
 */
export function buildResponsesRequest(
  request: TextRequest,
  provider: string,
  modelId: string,
): NativeRequestBuild {
  const problems = new RequestProblems(provider, 'openai.responses');
  for (const key of ['stop', 'seed', 'top_k', 'presence_penalty', 'frequency_penalty'] as const)
    problems.refused(key, request[key]);
  checkTools(request, problems);
  const options = providerOptionsOf(request, 'openai', problems) ?? {};
  const untranslated = Object.keys(options).find(
    (key) => !Object.hasOwn(OPTION_MEMBERS, key) && !READ_OPTIONS.has(key),
  );
  const { reasoning: reasoningModel } = openAiReasoningOf(modelId);
  const systemRole = reasoningModel ? 'developer' : 'system';
  const conversation = request.messages ?? request.input ?? '';
  const input: Item[] = [];
  if (request.system !== undefined) input.push({ role: systemRole, content: request.system });
  if (typeof conversation === 'string')
    input.push({ role: 'user', content: [{ type: 'input_text', text: conversation }] });
  else
    input.push(
      ...inputItems(
        conversation,
        request.messages === undefined ? 'input' : 'messages',
        systemRole,
        problems,
      ),
    );
  if (problems.list.length > 0) return { ok: false, problems: problems.list };
  if (untranslated !== undefined)
    return { ok: 'sdk', reason: `the provider option openai.${untranslated} is the AI SDK's to translate` };

  const askedEffort = typeof options.reasoningEffort === 'string' ? options.reasoningEffort : undefined;
  const effort =
    askedEffort ??
    (request.reasoning_effort === undefined ? undefined : openAiEffortFor(modelId, request.reasoning_effort));
  const summary =
    typeof options.reasoningSummary === 'string'
      ? options.reasoningSummary
      : effort !== undefined && effort !== 'none'
        ? 'detailed'
        : undefined;
  // Reasoning models take no sampling settings (the AI SDK drops them with a warning): only GPT-5.1 to 5.x
  // take them, and only with reasoning off.
  const samplingTaken =
    !reasoningModel || (effort === 'none' && /^gpt-5\.[1-9]/.test(modelId) && !/^gpt-5\.\d\d/.test(modelId));
  const strict = typeof options.strictJsonSchema === 'boolean' ? options.strictJsonSchema : true;
  const format = textFormat(request, strict);
  const verbosity = typeof options.textVerbosity === 'string' ? options.textVerbosity : undefined;
  const body: Record<string, unknown> = definedMembers({
    model: modelId,
    input,
    temperature: samplingTaken ? request.temperature : undefined,
    top_p: samplingTaken ? request.top_p : undefined,
    max_output_tokens: maxTokensOf(request),
    text: format === undefined && verbosity === undefined ? undefined : definedMembers({ format, verbosity }),
    user: request.user,
    store: request.store,
    metadata: request.metadata,
    service_tier: request.service_tier,
    parallel_tool_calls: request.parallel_tool_calls === false ? false : undefined,
    reasoning:
      reasoningModel && (effort !== undefined || summary !== undefined)
        ? definedMembers({ effort, summary })
        : undefined,
  });
  for (const [name, member] of Object.entries(OPTION_MEMBERS)) {
    if (options[name] !== undefined) body[member] = options[name];
  }
  if (!tierTaken(modelId, body.service_tier)) delete body.service_tier;
  if (body.store === false && reasoningModel) {
    // Without a stored response, a reasoning model's next turn needs its reasoning back, encrypted.
    const include = Array.isArray(body.include) ? body.include : [];
    if (!include.includes('reasoning.encrypted_content'))
      body.include = [...include, 'reasoning.encrypted_content'];
  }
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map(({ function: fn }) =>
      definedMembers({
        type: 'function',
        name: fn.name,
        description: fn.description,
        parameters: fn.parameters ?? { type: 'object', properties: {} },
        strict: fn.strict ?? false,
      }),
    );
    // The model may call tools unless told otherwise; the choice is said even when it is the default.
    const choice = request.tool_choice ?? 'auto';
    body.tool_choice = typeof choice === 'string' ? choice : { type: 'function', name: choice.function.name };
  }
  const stream = request.stream === true;
  if (stream) body.stream = true;
  return { ok: true, request: { path: '/responses', headers: {}, body, stream } };
}
