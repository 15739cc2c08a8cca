/**
 * The Try view's request model: everything a person set in the playground (route, system prompt, the
 * conversation's turns, the next message and its attachments, parameters, tools, response format) as one plain
 * object, and the pure functions that turn it into the `POST /v1/text` body the page sends. Anything that renders
 * "the current request" (the page itself, a snippet to copy) starts from {@link PlaygroundRequest} and
 * {@link toTextRequest}, so what is shown is what is sent.
 */

import type { ChatMessage, TextRequest, ToolDefinition } from '../../client/index.js';
import type { Modality } from './send-request.js';

/** A file attached to a user turn: an image or a PDF, its bytes as base64. */
export interface Attachment {
  /** The file's name, as chosen. */
  name: string;
  /** Its media type (`image/png`, `application/pdf`). */
  mediaType: string;
  /** Its bytes, base64-encoded. */
  data: string;
}

/** A tool call the model made, as an assistant turn keeps it: the arguments as the JSON text the model wrote. */
export interface TurnToolCall {
  /** The call's id, which its result names. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments' JSON text. */
  arguments: string;
}

/** One turn of the conversation. */
export type Turn =
  | { role: 'user'; text: string; attachments: Attachment[] }
  | { role: 'assistant'; text: string; toolCalls: TurnToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool as the person defines it: its parameters are JSON Schema text, read when the request is built. */
export interface ToolDraft {
  /** The function's name. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** Its parameters' JSON Schema, as typed. */
  parameters: string;
}

/** The parameters panel, each field as typed (an empty field is not sent). */
export interface Parameters {
  /** `temperature`, 0 to 2. */
  temperature: string;
  /** `top_p`, 0 to 1. */
  top_p: string;
  /** `max_output_tokens`, a whole number. */
  max_output_tokens: string;
  /** `stop`: one sequence a line, at most 4. */
  stop: string;
  /** `seed`, a whole number. */
  seed: string;
  /** `reasoning_effort`: one of {@link REASONING_EFFORTS} or empty. */
  reasoning_effort: string;
  /** `provider_options`: a JSON object keyed by provider. */
  provider_options: string;
}

/** The reasoning efforts a text request names. */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

/** The parameters the panel offers, in its order; each is a text option of `GET /v1/models`. */
export const PARAMETER_NAMES = [
  'temperature',
  'top_p',
  'max_output_tokens',
  'stop',
  'seed',
  'reasoning_effort',
  'provider_options',
] as const satisfies readonly (keyof Parameters)[];

/** A JSON-schema response format as the person sets it. */
export interface ResponseFormatDraft {
  /** Whether the answer must be a JSON object of the schema. */
  on: boolean;
  /** The schema's name. */
  name: string;
  /** The JSON Schema, as typed. */
  schema: string;
}

/** The whole request the Try view sends: one plain object. */
export interface PlaygroundRequest {
  /** The route or `provider:model`. */
  model: string;
  /** Which endpoint. */
  modality: Modality;
  /** The system prompt (text only; empty for none). */
  system: string;
  /** The conversation so far, oldest first (text only). */
  turns: Turn[];
  /** The next user message (text), or the prompt of the other modalities. */
  prompt: string;
  /** The files attached to the next user message. */
  attachments: Attachment[];
  /** Ask for a streamed text answer. */
  stream: boolean;
  /** The parameters panel. */
  parameters: Parameters;
  /** The tools the model may call. */
  tools: ToolDraft[];
  /** The response format. */
  responseFormat: ResponseFormatDraft;
}

/** Nothing set: no parameter, no tool, no schema. */
export const EMPTY_PARAMETERS: Parameters = {
  temperature: '',
  top_p: '',
  max_output_tokens: '',
  stop: '',
  seed: '',
  reasoning_effort: '',
  provider_options: '',
};

/** A first schema to start from when the response format is switched on. */
export const SAMPLE_SCHEMA = JSON.stringify(
  {
    type: 'object',
    properties: { city: { type: 'string' }, population: { type: 'integer' } },
    required: ['city', 'population'],
  },
  null,
  2,
);

/** A first tool to start from when a tool is added. */
export const SAMPLE_TOOL: ToolDraft = {
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: JSON.stringify(
    { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    null,
    2,
  ),
};

/** A new, empty request for a route. */
export function createPlaygroundRequest(model = ''): PlaygroundRequest {
  return {
    model,
    modality: 'text',
    system: '',
    turns: [],
    prompt: '',
    attachments: [],
    stream: true,
    parameters: { ...EMPTY_PARAMETERS },
    tools: [],
    responseFormat: { on: false, name: 'answer', schema: SAMPLE_SCHEMA },
  };
}

/** One field the request cannot be sent with, and why, for people. */
export interface RequestProblem {
  /** Which field: a parameter name, `tools/<index>/<member>`, `response_format/…` or `prompt`. */
  field: string;
  /** What is wrong. */
  message: string;
}

/** The request body, or the fields that keep it from being sent. */
export type BuiltRequest = { ok: true; body: TextRequest } | { ok: false; problems: RequestProblem[] };

/** A function name as the gateway takes it. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Most tools the gateway takes in one request. */
const MAX_TOOLS = 128;

/** Reads JSON text that must be an object; the message says what is wrong. */
export function readJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'Must be a JSON object.' };
  return { ok: true, value: value as Record<string, unknown> };
}

/** Problems of one tool as typed: its name and its parameters' schema. */
export function toolProblems(tool: ToolDraft, index: number, all: readonly ToolDraft[]): RequestProblem[] {
  const problems: RequestProblem[] = [];
  if (!TOOL_NAME.test(tool.name))
    problems.push({ field: `tools/${index}/name`, message: 'Must be 1 to 64 letters, digits, "_" or "-".' });
  else if (all.findIndex((other) => other.name === tool.name) !== index)
    problems.push({ field: `tools/${index}/name`, message: `Another tool is named "${tool.name}".` });
  if (tool.parameters.trim() !== '') {
    const read = readJsonObject(tool.parameters);
    if (!read.ok) problems.push({ field: `tools/${index}/parameters`, message: read.message });
    else if (read.value.type !== undefined && read.value.type !== 'object')
      problems.push({
        field: `tools/${index}/parameters`,
        message: 'A tool\'s parameters are an object: "type" must be "object".',
      });
  }
  return problems;
}

function numberOf(
  text: string,
  field: string,
  check: (value: number) => boolean,
  rule: string,
  problems: RequestProblem[],
): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || !check(value)) {
    problems.push({ field, message: rule });
    return undefined;
  }
  return value;
}

/** The options the parameters panel sets, among those `offered` (every one when the route is not listed). */
export function readParameters(
  parameters: Parameters,
  offered: ReadonlySet<string> | undefined,
): { options: Partial<TextRequest>; problems: RequestProblem[] } {
  const problems: RequestProblem[] = [];
  const options: Record<string, unknown> = {};
  const takes = (name: string) => offered === undefined || offered.has(name);
  const set = (name: string, value: unknown) => {
    if (value !== undefined && takes(name)) options[name] = value;
  };
  set(
    'temperature',
    numberOf(parameters.temperature, 'temperature', (v) => v >= 0 && v <= 2, 'From 0 to 2.', problems),
  );
  set(
    'top_p',
    numberOf(parameters.top_p, 'top_p', (v) => v >= 0 && v <= 1, 'From 0 to 1.', problems),
  );
  set(
    'max_output_tokens',
    numberOf(
      parameters.max_output_tokens,
      'max_output_tokens',
      (v) => Number.isInteger(v) && v >= 1 && v <= 2 ** 32 - 1,
      'A whole number of tokens, at least 1.',
      problems,
    ),
  );
  set('seed', numberOf(parameters.seed, 'seed', Number.isSafeInteger, 'A whole number.', problems));
  const stops = parameters.stop.split('\n').filter((line) => line !== '');
  if (stops.length > 4) problems.push({ field: 'stop', message: 'At most 4 sequences, one a line.' });
  else if (stops.length > 0) set('stop', stops.length === 1 ? stops[0] : stops);
  if (parameters.reasoning_effort !== '') {
    if ((REASONING_EFFORTS as readonly string[]).includes(parameters.reasoning_effort))
      set('reasoning_effort', parameters.reasoning_effort);
    else problems.push({ field: 'reasoning_effort', message: `One of ${REASONING_EFFORTS.join(', ')}.` });
  }
  if (parameters.provider_options.trim() !== '') {
    const read = readJsonObject(parameters.provider_options);
    if (!read.ok) problems.push({ field: 'provider_options', message: read.message });
    else if (Object.values(read.value).some((v) => typeof v !== 'object' || v === null || Array.isArray(v)))
      problems.push({
        field: 'provider_options',
        message: 'Each member is a provider (openai, anthropic…) whose value is an object of its options.',
      });
    else set('provider_options', read.value);
  }
  // A field the route does not take is hidden, and its problem with it.
  return { options: options as Partial<TextRequest>, problems: problems.filter((p) => takes(p.field)) };
}

/** A user turn's content: its text alone, or parts with its images (data URLs) and files. */
function userContent(
  turn: Extract<Turn, { role: 'user' }>,
): Extract<ChatMessage, { role: 'user' }>['content'] {
  if (turn.attachments.length === 0) return turn.text;
  type Parts = Exclude<Extract<ChatMessage, { role: 'user' }>['content'], string>;
  const parts: Parts = turn.text === '' ? [] : [{ type: 'text', text: turn.text }];
  for (const file of turn.attachments) {
    if (file.mediaType.startsWith('image/'))
      parts.push({ type: 'image_url', image_url: { url: `data:${file.mediaType};base64,${file.data}` } });
    else
      parts.push({
        type: 'file',
        file: { file_data: file.data, media_type: file.mediaType, filename: file.name },
      });
  }
  return parts;
}

/** The conversation's turns as the chat messages of a text request. */
export function messagesOf(turns: readonly Turn[]): ChatMessage[] {
  return turns.map((turn): ChatMessage => {
    if (turn.role === 'user') return { role: 'user', content: userContent(turn) };
    if (turn.role === 'tool') return { role: 'tool', tool_call_id: turn.toolCallId, content: turn.content };
    return {
      role: 'assistant',
      content: turn.text === '' && turn.toolCalls.length > 0 ? null : turn.text,
      ...(turn.toolCalls.length === 0
        ? {}
        : {
            tool_calls: turn.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          }),
    };
  });
}

/** The turns a send adds: the next message with its attachments, when there is one. */
export function pendingTurns(request: PlaygroundRequest): Turn[] {
  if (request.prompt === '' && request.attachments.length === 0) return [];
  return [{ role: 'user', text: request.prompt, attachments: request.attachments }];
}

/**
 * The `POST /v1/text` body of the request as it stands: the system prompt, the turns and the next message, and
 * the parameters, tools and response format among the options `offered` for the route (`undefined`: all).
 */
export function toTextRequest(request: PlaygroundRequest, offered?: ReadonlySet<string>): BuiltRequest {
  const takes = (name: string) => offered === undefined || offered.has(name);
  const { options, problems } = readParameters(request.parameters, offered);
  const turns = [...request.turns, ...pendingTurns(request)];
  // The model answers a user message or tool results; a conversation that ends with its own answer waits.
  if (turns.length === 0 || turns[turns.length - 1]?.role === 'assistant')
    problems.push({ field: 'prompt', message: 'Write a message to send.' });
  const body: Record<string, unknown> = { model: request.model };
  if (request.system.trim() !== '') body.system = request.system;
  body.messages = messagesOf(turns);
  Object.assign(body, options);
  if (request.tools.length > 0 && takes('tools')) {
    if (request.tools.length > MAX_TOOLS)
      problems.push({ field: 'tools', message: `At most ${MAX_TOOLS} tools.` });
    const tools: ToolDefinition[] = [];
    request.tools.forEach((tool, index, all) => {
      const found = toolProblems(tool, index, all);
      problems.push(...found);
      if (found.length > 0) return;
      const parameters = tool.parameters.trim() === '' ? undefined : readJsonObject(tool.parameters);
      tools.push({
        type: 'function',
        function: {
          name: tool.name,
          ...(tool.description === '' ? {} : { description: tool.description }),
          ...(parameters?.ok === true ? { parameters: parameters.value } : {}),
        },
      });
    });
    body.tools = tools;
  }
  if (request.responseFormat.on && takes('response_format')) {
    const schema = readJsonObject(request.responseFormat.schema);
    if (!TOOL_NAME.test(request.responseFormat.name))
      problems.push({
        field: 'response_format/name',
        message: 'Must be 1 to 64 letters, digits, "_" or "-".',
      });
    if (!schema.ok) problems.push({ field: 'response_format/schema', message: schema.message });
    else
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: request.responseFormat.name, schema: schema.value },
      };
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, body: body as TextRequest };
}

/**
 * The assistant turn an answer adds to the conversation: its text and tool calls (arguments back to the JSON
 * text the model wrote, or its raw text when it wrote no JSON).
 */
export function answerTurn(
  content: string,
  calls: readonly { id: string; name: string; arguments: unknown; arguments_not_json?: true }[],
): Turn {
  return {
    role: 'assistant',
    text: content,
    toolCalls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments:
        call.arguments_not_json === true && typeof call.arguments === 'string'
          ? call.arguments
          : JSON.stringify(call.arguments ?? {}),
    })),
  };
}

/** The tool calls of the last assistant turn that no tool turn answers yet: the ones to answer by hand. */
export function unansweredCalls(turns: readonly Turn[]): TurnToolCall[] {
  let last = turns.length - 1;
  while (last >= 0 && turns[last]?.role !== 'assistant') last--;
  const turn = turns[last];
  if (turn === undefined || turn.role !== 'assistant') return [];
  const answered = new Set(turns.slice(last + 1).flatMap((t) => (t.role === 'tool' ? [t.toolCallId] : [])));
  return turn.toolCalls.filter((call) => !answered.has(call.id));
}
