/**
 * Copy as code: the request the console is about to send, written as a program that sends the same request
 * from a terminal or a Node.js script — `curl` to `POST /v1/text`, `verdict/client`, and the OpenAI and
 * Anthropic SDKs through the gateway's drop-in surfaces (docs/console.md, "Copy as code"). Pure: a request in,
 * text out. The gateway key is never written into a snippet; each reads it from `VERDICT_GATEWAY_KEY`.
 */

import type { ChatMessage, TextRequest } from '../../client/types.js';

/** The variable every snippet reads the gateway key from. */
export const KEY_VARIABLE = 'VERDICT_GATEWAY_KEY';

/** The languages and clients a request is written for, in the order the console shows them. */
export const SNIPPET_KINDS = {
  curl: 'curl',
  client: 'verdict/client',
  openai: 'OpenAI SDK',
  anthropic: 'Anthropic SDK',
} as const;

/** Which client a snippet uses. */
export type SnippetKind = keyof typeof SNIPPET_KINDS;

/** One request written for one client. */
export interface Snippet {
  /** Which client. */
  kind: SnippetKind;
  /** Its name for people (`curl`, `OpenAI SDK`…). */
  title: string;
  /** `sh` or `js` (an ES module for Node.js). */
  language: 'sh' | 'js';
  /** The program. */
  code: string;
  /** Members of the request this client's API cannot express, left out of its program (and named in it). */
  omitted: string[];
}

/** Where the snippets send the request. */
export interface SnippetTarget {
  /** The gateway's base URL, such as `http://127.0.0.1:8787` (no trailing slash needed). */
  baseUrl: string;
  /** Whether the gateway asks for a key: the snippets then send the one `VERDICT_GATEWAY_KEY` holds. */
  keyed: boolean;
}

/** The Anthropic Messages API needs a token limit; the one a request without its own gets. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

/** A JSON value as JavaScript source: member names bare where they are identifiers, two-space indents. */
export function toJavaScript(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + toJavaScript(item, inner)).join(',\n')},\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined);
    if (entries.length === 0) return '{}';
    const members = entries.map(
      ([name, member]) =>
        `${inner}${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name)}: ${toJavaScript(member, inner)}`,
    );
    return `{\n${members.join(',\n')},\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The base URL without its trailing slashes. */
function baseOf(target: SnippetTarget): string {
  return target.baseUrl.replace(/\/+$/, '');
}

/** The request without `stream`: every snippet asks for the whole answer at once. */
function unstreamed(request: TextRequest): Record<string, unknown> {
  const { stream: _stream, ...rest } = request as TextRequest & { stream?: boolean };
  return rest;
}

/** The conversation of a request as messages, its `system` first. */
function conversationOf(request: TextRequest): ChatMessage[] {
  const turns: ChatMessage[] =
    request.messages ?? (typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : []);
  const listed = Array.isArray(request.input) ? request.input : [];
  const system: ChatMessage[] =
    request.system === undefined || request.system === ''
      ? []
      : [{ role: 'system', content: request.system }];
  return [...system, ...listed, ...turns];
}

/** The request as `curl` to `POST /v1/text`; the body goes in a quoted here-document, so nothing in it is expanded. */
function curlSnippet(request: TextRequest, target: SnippetTarget): Snippet {
  const lines = [
    `curl -sS ${baseOf(target)}/v1/text \\`,
    `  -H 'Content-Type: application/json' \\`,
    ...(target.keyed ? [`  -H "Authorization: Bearer $${KEY_VARIABLE}" \\`] : []),
    '  --data-binary @- <<"JSON"',
    JSON.stringify(unstreamed(request), null, 2),
    'JSON',
  ];
  return {
    kind: 'curl',
    title: SNIPPET_KINDS.curl,
    language: 'sh',
    code: `${lines.join('\n')}\n`,
    omitted: [],
  };
}

/** The key option of an SDK's constructor; an SDK that needs one gets a placeholder for a gateway without keys. */
function keyOption(target: SnippetTarget, needed: boolean): string[] {
  if (target.keyed) return [`  apiKey: process.env.${KEY_VARIABLE},`];
  return needed ? [`  apiKey: 'none', // this gateway asks for no key`] : [];
}

/** A comment naming what a snippet leaves out, or nothing. */
function omittedComment(omitted: readonly string[], api: string): string[] {
  if (omitted.length === 0) return [];
  return [
    `// Left out: ${api} has no ${omitted.join(', ')}; the curl and verdict/client snippets send them.`,
  ];
}

/** The request through `verdict/client`, unchanged. */
function clientSnippet(request: TextRequest, target: SnippetTarget): Snippet {
  const lines = [
    "import { createClient } from 'verdict/client';",
    '',
    'const client = createClient({',
    `  baseURL: ${JSON.stringify(baseOf(target))},`,
    ...(target.keyed ? [`  key: process.env.${KEY_VARIABLE},`] : []),
    '});',
    `const answer = await client.text(${toJavaScript(unstreamed(request))});`,
    'console.log(answer.success ? answer.content : answer.error);',
  ];
  return {
    kind: 'client',
    title: SNIPPET_KINDS.client,
    language: 'js',
    code: `${lines.join('\n')}\n`,
    omitted: [],
  };
}

/** The members of the text request Chat Completions takes under another name or not at all. */
function chatCompletionsBody(request: TextRequest): Record<string, unknown> {
  const {
    input: _input,
    messages: _messages,
    system: _system,
    model,
    max_output_tokens,
    ...options
  } = unstreamed(request) as TextRequest & { max_output_tokens?: number };
  return {
    model,
    messages: conversationOf(request),
    ...options,
    ...(max_output_tokens === undefined ? {} : { max_completion_tokens: max_output_tokens }),
  };
}

/** The request through the OpenAI SDK and the gateway's Chat Completions surface (`/openai/v1`). */
function openAiSnippet(request: TextRequest, target: SnippetTarget): Snippet {
  const lines = [
    "import OpenAI from 'openai';",
    '',
    'const openai = new OpenAI({',
    `  baseURL: ${JSON.stringify(`${baseOf(target)}/openai/v1`)},`,
    ...keyOption(target, true),
    '});',
    `const completion = await openai.chat.completions.create(${toJavaScript(chatCompletionsBody(request))});`,
    'console.log(completion.choices[0].message);',
  ];
  return {
    kind: 'openai',
    title: SNIPPET_KINDS.openai,
    language: 'js',
    code: `${lines.join('\n')}\n`,
    omitted: [],
  };
}

/** The text of a message whose content is a string or text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : ''))
    .join('');
}

/** A JSON text as a value, or the text itself when it is not JSON (Anthropic takes a tool call's input as an object). */
function parsedArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return { text };
  }
}

/** A data: URL's media type and base64 bytes. */
function dataUrlParts(url: string): { media_type: string; data: string } | undefined {
  const match = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/s.exec(url);
  return match === null ? undefined : { media_type: match[1] as string, data: match[2] as string };
}

/** A user part as an Anthropic content block, or undefined when the Messages API has no such block. */
function anthropicBlockOf(part: unknown, omitted: Set<string>): unknown {
  if (typeof part !== 'object' || part === null || !('type' in part)) return undefined;
  const typed = part as { type: string } & Record<string, unknown>;
  if (typed.type === 'text') return { type: 'text', text: typed.text };
  if (typed.type === 'image_url') {
    const url = String((typed.image_url as { url?: unknown } | undefined)?.url ?? '');
    const inline = dataUrlParts(url);
    return {
      type: 'image',
      source: inline === undefined ? { type: 'url', url } : { type: 'base64', ...inline },
    };
  }
  if (typed.type === 'file') {
    const file = typed.file as { file_data?: string; media_type?: string } | undefined;
    const inline = dataUrlParts(file?.file_data ?? '');
    const data = inline?.data ?? file?.file_data ?? '';
    const mediaType = file?.media_type ?? inline?.media_type ?? '';
    if (mediaType === 'application/pdf')
      return { type: 'document', source: { type: 'base64', media_type: mediaType, data } };
  }
  omitted.add(`${typed.type} parts${typed.type === 'file' ? ' other than PDF' : ''}`);
  return undefined;
}

/** The conversation as Anthropic messages: system text apart, tool results as user blocks, tool calls as tool_use. */
function anthropicMessagesOf(request: TextRequest, omitted: Set<string>) {
  const system: string[] = [];
  const messages: { role: 'user' | 'assistant'; content: unknown }[] = [];
  const push = (role: 'user' | 'assistant', blocks: unknown[]) => {
    const last = messages.at(-1);
    // The Messages API alternates user and assistant turns: consecutive blocks of one role join one message.
    if (last !== undefined && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of conversationOf(request)) {
    if (message.role === 'system' || message.role === 'developer') system.push(textOf(message.content));
    else if (message.role === 'user') {
      if (typeof message.content === 'string') push('user', [{ type: 'text', text: message.content }]);
      else push('user', message.content.map((part) => anthropicBlockOf(part, omitted)).filter(Boolean));
    } else if (message.role === 'assistant') {
      const text = textOf(message.content);
      push('assistant', [
        ...(text === '' ? [] : [{ type: 'text', text }]),
        ...(message.tool_calls ?? []).map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.function.name,
          input: parsedArguments(call.function.arguments),
        })),
      ]);
    } else {
      push('user', [
        { type: 'tool_result', tool_use_id: message.tool_call_id, content: textOf(message.content) },
      ]);
    }
  }
  // A message of one text block reads better as a string, as Anthropic's own examples write it.
  const simplified = messages.map((message) => {
    const blocks = message.content as { type: string; text?: string }[];
    const only = blocks.length === 1 ? blocks[0] : undefined;
    return only?.type === 'text' ? { ...message, content: only.text } : message;
  });
  return { system: system.join('\n\n'), messages: simplified };
}

/** The tool choice in Anthropic's shape. */
function anthropicToolChoice(request: TextRequest): Record<string, unknown> | undefined {
  const choice = request.tool_choice;
  const disable = request.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...disable };
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name, ...disable };
  if (choice === 'auto' || request.parallel_tool_calls === false) return { type: 'auto', ...disable };
  return undefined;
}

/** The members of the text request the Messages API has no counterpart for, named as the request names them. */
const NOT_IN_MESSAGES = [
  'response_format',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'reasoning_effort',
  'provider_options',
  'user',
  'store',
  'metadata',
  'service_tier',
] as const;

/** The Messages request body for a text request, and what it had to leave out. */
function messagesBody(request: TextRequest): { body: Record<string, unknown>; omitted: string[] } {
  const omitted = new Set<string>();
  const { system, messages } = anthropicMessagesOf(request, omitted);
  for (const name of NOT_IN_MESSAGES) if (request[name] !== undefined) omitted.add(name);
  // Anthropic's temperature runs from 0 to 1; a higher one the Messages API refuses.
  const temperature =
    request.temperature !== undefined && request.temperature > 1 ? undefined : request.temperature;
  if (temperature !== request.temperature) omitted.add('temperature above 1');
  const stop = request.stop === undefined ? undefined : [request.stop].flat();
  const body = {
    model: request.model,
    max_tokens:
      request.max_output_tokens ??
      request.max_tokens ??
      request.max_completion_tokens ??
      ANTHROPIC_DEFAULT_MAX_TOKENS,
    ...(system === '' ? {} : { system }),
    messages,
    temperature,
    top_p: request.top_p,
    top_k: request.top_k,
    stop_sequences: stop,
    tools: request.tools?.map((tool) => ({
      name: tool.function.name,
      description: tool.function.description,
      input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
    })),
    tool_choice: anthropicToolChoice(request),
  };
  return { body, omitted: [...omitted] };
}

/** The request through the Anthropic SDK and the gateway's Messages surface (`/anthropic`). */
function anthropicSnippet(request: TextRequest, target: SnippetTarget): Snippet {
  const { body, omitted } = messagesBody(request);
  const lines = [
    "import Anthropic from '@anthropic-ai/sdk';",
    '',
    ...omittedComment(omitted, "Anthropic's Messages API"),
    'const anthropic = new Anthropic({',
    `  baseURL: ${JSON.stringify(`${baseOf(target)}/anthropic`)},`,
    ...keyOption(target, true),
    '});',
    `const message = await anthropic.messages.create(${toJavaScript(body)});`,
    'console.log(message.content);',
  ];
  return {
    kind: 'anthropic',
    title: SNIPPET_KINDS.anthropic,
    language: 'js',
    code: `${lines.join('\n')}\n`,
    omitted,
  };
}

/**
 * The request as curl, `verdict/client`, the OpenAI SDK and the Anthropic SDK, in that order.
 *
 * @example
 * const [curl] = writeSnippets({ model: 'demo:chat', input: 'Hello' }, { baseUrl: 'http://127.0.0.1:8787', keyed: false });
 */
export function writeSnippets(request: TextRequest, target: SnippetTarget): Snippet[] {
  return [
    curlSnippet(request, target),
    clientSnippet(request, target),
    openAiSnippet(request, target),
    anthropicSnippet(request, target),
  ];
}
