import { IMAGE_EXTENSIONS, splitDataUrl } from '../request/chat-request.js';
import type { ChatMessage, ChatUserPart } from '../request/chat-request-schema.js';
import type { TextRequest } from '../request/request-schemas.js';
import { definedMembers, type NativeRequestBuild } from './native-request.js';
import { geminiThinkingFor } from './reasoning-budget.js';
import {
  checkTools,
  maxTokensOf,
  parseJsonText,
  providerOptionsOf,
  RequestProblems,
  textOfContent,
} from './request-problems.js';

/**
 * verdict's text request as a Gemini API request (`POST /models/{model}:generateContent`, or
 * `:streamGenerateContent?alt=sse` for a stream): the conversation as `contents`, system text as
 * `systemInstruction`, tools as function declarations, `response_format` as a JSON response schema and the
 * reasoning effort as `thinkingConfig` (docs/design.md, "Native wire formats").
 */

/**
 * The `google` provider options the native path translates, by the AI SDK's name (which `provider_options`
 * uses) and where the member goes: into `generationConfig` or at the top of the body. A request with any other
 * `google` option keeps the AI SDK's path.
 */
const GENERATION_OPTIONS = new Set([
  'responseModalities',
  'mediaResolution',
  'audioTimestamp',
  'imageConfig',
]);
const TOP_OPTIONS = new Set(['safetySettings', 'cachedContent', 'serviceTier']);
/** Options read by the builder itself. */
const READ_OPTIONS = new Set(['thinkingConfig', 'structuredOutputs', 'threshold']);

/** The harm categories a `threshold` option sets, as the Gemini API lists the configurable ones. */
const SAFETY_CATEGORIES = [
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
];

/**
 * The thought signature Gemini 3 documents for replayed function calls whose signature the client did not
 * keep: without one, the API refuses a conversation that holds an earlier call.
 */
const SKIP_SIGNATURE = 'skip_thought_signature_validator';

type Part = Record<string, unknown>;

/** True for the Gemini 3 and later models (what they need differs: thought signatures, thinking levels). */
function isGemini3(modelId: string): boolean {
  return (
    /(^|[/.])gemini-/i.test(modelId) &&
    !/(^|[/.])gemini-[12](?:[.-]|$)/i.test(modelId) &&
    !/(^|[/.])gemini-pro(?:-vision)?$/i.test(modelId) &&
    !/(^|[/.])gemini-robotics-er-1\.5(?:[.-]|$)/i.test(modelId)
  );
}

/**
 * The model's path below the base URL: `models/<id>`, or the id itself when it names its collection
 * (`tunedModels/…`). Each segment is percent-encoded, so that an id never adds a query or climbs a level.
 */
function modelPath(modelId: string): string {
  const path = modelId.includes('/') ? modelId : `models/${modelId}`;
  return path
    .split('/')
    .map((segment) =>
      segment === '.' || segment === '..' ? '%2E'.repeat(segment.length) : encodeURIComponent(segment),
    )
    .join('/');
}

/** A user part as a Gemini part, or `undefined` (with a problem) when it cannot be sent. */
function userPart(part: ChatUserPart, at: (string | number)[], problems: RequestProblems): Part | undefined {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image_url': {
      const data = splitDataUrl(part.image_url.url);
      if (data !== undefined) return { inlineData: { mimeType: data.mediaType, data: data.data } };
      const url = new URL(part.image_url.url);
      const mimeType = IMAGE_EXTENSIONS[/\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase() ?? ''];
      // Gemini takes a URL as a file reference, which must name its image type.
      if (mimeType === undefined) {
        problems.refuse(at, 'image URLs whose path does not end in .png, .jpg, .jpeg, .webp, .gif or .heic');
        return undefined;
      }
      return { fileData: { mimeType, fileUri: url.toString() } };
    }
    case 'input_audio':
      return {
        inlineData: {
          mimeType: part.input_audio.format === 'mp3' ? 'audio/mpeg' : 'audio/wav',
          data: part.input_audio.data,
        },
      };
    case 'file': {
      const inline = splitDataUrl(part.file.file_data);
      const mimeType = part.file.media_type ?? inline?.mediaType;
      if (mimeType === undefined) {
        problems.problem([...at, 'file', 'media_type'], 'A file given as bare base64 needs its media_type.');
        return undefined;
      }
      return { inlineData: { mimeType, data: inline?.data ?? part.file.file_data } };
    }
  }
}

/** True when a JSON value holds a `$ref` member anywhere. */
function holdsReference(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsReference);
  return Object.entries(value).some(([key, member]) => key === '$ref' || holdsReference(member));
}

/** The conversation as Gemini `contents`, and the system text that leads it. */
function contentsOf(
  list: readonly ChatMessage[],
  base: string,
  gemini3: boolean,
  problems: RequestProblems,
): { system: string[]; contents: Part[] } {
  const names = new Map<string, string>();
  const system: string[] = [];
  const contents: Part[] = [];
  list.forEach((message, index) => {
    const at: (string | number)[] = [base, index];
    switch (message.role) {
      case 'system':
      case 'developer':
        // Gemini takes system text only as the instruction that leads the conversation.
        if (contents.length > 0)
          problems.refuse([...at, 'role'], 'system messages after the first user or assistant message');
        else system.push(textOfContent(message.content));
        return;
      case 'user': {
        const parts =
          typeof message.content === 'string'
            ? [{ text: message.content }]
            : message.content.flatMap((part, partIndex) => {
                const converted = userPart(part, [...at, 'content', partIndex], problems);
                return converted === undefined ? [] : [converted];
              });
        contents.push({ role: 'user', parts });
        return;
      }
      case 'assistant': {
        const text = textOfContent(message.content);
        if (text === '' && message.tool_calls === undefined)
          problems.problem([...at, 'content'], 'An assistant message needs content or tool_calls.');
        const parts: Part[] = text === '' ? [] : [{ text }];
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
          parts.push(
            definedMembers({
              functionCall: { id: call.id, name: call.function.name, args: args.value },
              thoughtSignature: gemini3 ? SKIP_SIGNATURE : undefined,
            }),
          );
        });
        contents.push({ role: 'model', parts });
        return;
      }
      case 'tool': {
        const name = names.get(message.tool_call_id);
        if (name === undefined) {
          problems.problem(
            [...at, 'tool_call_id'],
            'No earlier assistant message has a tool call with this id.',
          );
          return;
        }
        const text = textOfContent(message.content);
        const json = parseJsonText(text);
        const value =
          json !== undefined && json.value !== null && typeof json.value === 'object' ? json.value : text;
        const part = {
          functionResponse: {
            id: message.tool_call_id,
            name,
            response: { name, content: holdsReference(value) ? JSON.stringify(value) : value },
          },
        };
        // Answers to the calls of one turn go back together, as one user turn.
        const last = contents.at(-1);
        if (last?.role === 'user' && last.toolResults === true) (last.parts as Part[]).push(part);
        else contents.push({ role: 'user', parts: [part], toolResults: true });
        return;
      }
    }
  });
  for (const content of contents) delete content.toolResults;
  return { system, contents };
}

/** A JSON Schema as Gemini's `responseJsonSchema` takes it: `const` said as a one-value `enum`. */
function responseSchemaOf(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const {
    const: constant,
    properties,
    items,
    additionalProperties,
    anyOf,
    oneOf,
    ...rest
  } = schema as Record<string, unknown>;
  const each = (record: unknown) =>
    record !== null && typeof record === 'object'
      ? Object.fromEntries(Object.entries(record).map(([key, value]) => [key, responseSchemaOf(value)]))
      : record;
  return definedMembers({
    ...rest,
    enum: constant === undefined ? rest.enum : [constant],
    properties: properties === undefined ? undefined : each(properties),
    items: Array.isArray(items)
      ? items.map(responseSchemaOf)
      : items === undefined
        ? undefined
        : responseSchemaOf(items),
    additionalProperties:
      additionalProperties === undefined || typeof additionalProperties === 'boolean'
        ? additionalProperties
        : responseSchemaOf(additionalProperties),
    anyOf: Array.isArray(anyOf) ? anyOf.map(responseSchemaOf) : anyOf,
    oneOf: Array.isArray(oneOf) ? oneOf.map(responseSchemaOf) : oneOf,
    $defs: rest.$defs === undefined ? undefined : each(rest.$defs),
  });
}

/** The tools and the tool config of a request. */
function toolsOf(request: TextRequest): { tools?: Part[]; toolConfig?: Part } {
  if (request.tools === undefined || request.tools.length === 0) return {};
  const declarations = request.tools.map(({ function: fn }) => ({
    name: fn.name,
    description: fn.description ?? '',
    parametersJsonSchema: fn.parameters ?? { type: 'object', properties: {} },
  }));
  const strict = request.tools.some(({ function: fn }) => fn.strict === true);
  const tools = [{ functionDeclarations: declarations }];
  // The model may call tools unless told otherwise; the choice is said even when it is the default.
  const choice = request.tool_choice ?? 'auto';
  const config =
    choice === 'auto'
      ? { mode: strict ? 'VALIDATED' : 'AUTO' }
      : choice === 'none'
        ? { mode: 'NONE' }
        : choice === 'required'
          ? { mode: 'ANY' }
          : { mode: 'ANY', allowedFunctionNames: [choice.function.name] };
  return { tools, toolConfig: { functionCallingConfig: config } };
}

/**
 * Build the Gemini API request for a text request to `modelId` at provider `provider`.
 * @example
 * buildGenerateContentRequest({ model: 'google/gemini-2.5-flash', input: 'Hi' }, 'google', 'gemini-2.5-flash')
 * // → { ok: true, request: { path: '/models/gemini-2.5-flash:generateContent', body: { contents: [...] }, … } }
 */
export function buildGenerateContentRequest(
  request: TextRequest,
  provider: string,
  modelId: string,
): NativeRequestBuild {
  const problems = new RequestProblems(provider, 'google');
  for (const key of ['presence_penalty', 'frequency_penalty'] as const) problems.refused(key, request[key]);
  if (request.parallel_tool_calls === false)
    problems.refuse(['parallel_tool_calls'], '"parallel_tool_calls": false');
  if (request.service_tier !== undefined && !['auto', 'default'].includes(request.service_tier))
    problems.refuse(['service_tier'], `"service_tier": "${request.service_tier}"`);
  checkTools(request, problems);
  const options = providerOptionsOf(request, 'google', problems) ?? {};
  const gemini3 = isGemini3(modelId);
  const conversation = request.messages ?? request.input ?? '';
  const system = request.system === undefined ? [] : [request.system];
  let contents: Part[];
  if (typeof conversation === 'string') contents = [{ role: 'user', parts: [{ text: conversation }] }];
  else {
    const read = contentsOf(
      conversation,
      request.messages === undefined ? 'input' : 'messages',
      gemini3,
      problems,
    );
    system.push(...read.system);
    contents = read.contents;
  }
  if (problems.list.length > 0) return { ok: false, problems: problems.list };
  const untranslated = Object.keys(options).find(
    (key) => !GENERATION_OPTIONS.has(key) && !TOP_OPTIONS.has(key) && !READ_OPTIONS.has(key),
  );
  if (untranslated !== undefined)
    return { ok: 'sdk', reason: `the provider option google.${untranslated} is the AI SDK's to translate` };
  const format = request.response_format;
  const json = format !== undefined && format.type !== 'text';
  const schema = format?.type === 'json_schema' ? format.json_schema.schema : undefined;
  // Gemini models before 3 cannot answer in JSON and call functions in one turn; the AI SDK then asks for the
  // JSON as a call of an extra tool and turns that call back into text, which stays its work.
  if (schema !== undefined && (request.tools?.length ?? 0) > 0 && /(^|\/)gemini-/i.test(modelId)) {
    const choice = request.tool_choice;
    if (!gemini3 || choice === 'required' || (choice !== undefined && typeof choice !== 'string'))
      return { ok: 'sdk', reason: 'a JSON schema answer beside function tools is asked for as a tool call' };
  }
  const gemma = modelId.toLowerCase().startsWith('gemma-');
  if (gemma && system.length > 0 && contents[0]?.role === 'user') {
    // Gemma models take no system instruction: it leads the first user turn instead.
    const parts = contents[0].parts as Part[];
    contents[0] = { ...contents[0], parts: [{ text: `${system.join('\n\n')}\n\n` }, ...parts] };
  }
  const asked = options.thinkingConfig;
  const askedThinking =
    asked !== null && typeof asked === 'object' && !Array.isArray(asked) ? (asked as Part) : undefined;
  const thinking =
    askedThinking?.thinkingBudget !== undefined || askedThinking?.thinkingLevel !== undefined
      ? askedThinking
      : request.reasoning_effort === undefined && askedThinking === undefined
        ? undefined
        : {
            ...(request.reasoning_effort === undefined
              ? {}
              : geminiThinkingFor(modelId, request.reasoning_effort)),
            ...askedThinking,
          };
  const generationConfig: Record<string, unknown> = definedMembers({
    maxOutputTokens: maxTokensOf(request),
    temperature: request.temperature,
    topK: request.top_k,
    topP: request.top_p,
    stopSequences:
      request.stop === undefined
        ? undefined
        : typeof request.stop === 'string'
          ? [request.stop]
          : request.stop,
    seed: request.seed,
    responseMimeType: json ? 'application/json' : undefined,
    responseJsonSchema:
      schema !== undefined && options.structuredOutputs !== false ? responseSchemaOf(schema) : undefined,
    thinkingConfig: thinking,
  });
  for (const key of GENERATION_OPTIONS) if (options[key] !== undefined) generationConfig[key] = options[key];
  const threshold = options.threshold;
  const body: Record<string, unknown> = definedMembers({
    generationConfig,
    contents,
    systemInstruction: system.length > 0 && !gemma ? { parts: system.map((text) => ({ text })) } : undefined,
    safetySettings:
      threshold === undefined ? undefined : SAFETY_CATEGORIES.map((category) => ({ category, threshold })),
    ...toolsOf(request),
  });
  for (const key of TOP_OPTIONS) if (options[key] !== undefined) body[key] = options[key];
  const stream = request.stream === true;
  const model = modelPath(modelId);
  const path = stream ? `/${model}:streamGenerateContent?alt=sse` : `/${model}:generateContent`;
  return { ok: true, request: { path, headers: {}, body, stream } };
}
