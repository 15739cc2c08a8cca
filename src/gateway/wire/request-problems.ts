import { pointerOf } from '../../json/json-pointer.js';
import { isJsonObjectValue, type JsonObject } from '../basics/json-value.js';
import type { ConfigProblem } from '../config/config-problem.js';
import type { ChatFamily, Refusable } from '../request/chat-request.js';
import { REFUSED } from '../request/chat-request.js';
import type { TextRequest } from '../request/request-schemas.js';

/**
 * The problems a native format finds while building a provider request: what the target cannot take, named by
 * JSON Pointer into the text request and by the provider, in the same words as on the AI SDK's path
 * (docs/gateway.md, "Fields each target honours"). Nothing is dropped silently.
 */
export class RequestProblems {
  /** The problems found so far. */
  readonly list: ConfigProblem[] = [];

  constructor(
    /** The configured provider id. */
    readonly provider: string,
    /** The wire family the target speaks. */
    readonly family: ChatFamily,
  ) {}

  /** The target does not take `what` at `path`. */
  refuse(path: readonly (string | number)[], what: string): void {
    this.list.push({
      path: pointerOf(...path),
      message: `Provider "${this.provider}" (${this.family}) does not take ${what}.`,
    });
  }

  /** The request itself is wrong at `path`. */
  problem(path: readonly (string | number)[], message: string): void {
    this.list.push({ path: pointerOf(...path), message });
  }

  /** True when the family does not take the option; the refusal is recorded when the request sets it. */
  refused(key: Refusable, value: unknown): boolean {
    if (value === undefined || !REFUSED[this.family].has(key)) return false;
    this.refuse([key], `"${key}"`);
    return true;
  }
}

/** A JSON text's value, or `undefined` when it is not JSON. */
export function parseJsonText(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** The text of a message content given as a string or as text parts. */
export function textOfContent(content: string | readonly { text: string }[] | null | undefined): string {
  if (content === undefined || content === null) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

/** The request's token limit under whichever of its synonyms it was given. */
export function maxTokensOf(request: TextRequest): number | undefined {
  return request.max_output_tokens ?? request.max_tokens ?? request.max_completion_tokens;
}

/**
 * The tools of a request checked once: no name declared twice, and a forced `tool_choice` naming a declared
 * tool.
 */
export function checkTools(request: TextRequest, problems: RequestProblems): void {
  const names = new Set<string>();
  (request.tools ?? []).forEach((entry, index) => {
    const name = entry.function.name;
    if (names.has(name))
      problems.problem(['tools', index, 'function', 'name'], `Tool "${name}" is declared twice.`);
    names.add(name);
  });
  const choice = request.tool_choice;
  if (choice !== undefined && typeof choice !== 'string' && !names.has(choice.function.name)) {
    problems.problem(
      ['tool_choice', 'function', 'name'],
      `No tool named "${choice.function.name}" is declared in "tools".`,
    );
  }
}

/** The request's `provider_options` under one key, every entry checked to be an object. */
export function providerOptionsOf(
  request: TextRequest,
  key: string,
  problems: RequestProblems,
): JsonObject | undefined {
  let own: JsonObject | undefined;
  for (const [name, options] of Object.entries(request.provider_options ?? {})) {
    if (!isJsonObjectValue(options)) problems.problem(['provider_options', name], 'Must be a JSON object.');
    else if (name === key) own = options;
  }
  return own;
}
