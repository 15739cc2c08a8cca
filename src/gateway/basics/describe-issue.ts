import type { z } from 'zod';

/**
 * Problems in a request, in verdict's own words (docs/gateway.md, "Errors"): a schema's issue becomes one
 * sentence about the member at its JSON Pointer, never the validation library's text. Passed to zod as the
 * error map of a parse, so messages written into a schema (`'must be WIDTHxHEIGHT…'`) still win.
 */

/** What a JSON value is, as a sentence names it. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

/** What a schema expects, as a sentence names it. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
  record: 'an object',
  literal: 'a fixed value',
};

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function bound(value: number | bigint): string {
  return String(value);
}

/** What a length or size refers to, by the kind of value that was checked. */
function measured(origin: string, count: number | bigint): string {
  const n = Number(count);
  if (origin === 'string') return `${bound(count)} character${n === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return `${bound(count)} item${n === 1 ? '' : 's'}`;
  return bound(count);
}

function tooSmall(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>): string {
  const { origin, minimum, inclusive } = issue;
  if (origin === 'string' && Number(minimum) === 1 && inclusive !== false) return 'Must not be empty.';
  if (origin === 'array' && Number(minimum) === 1 && inclusive !== false)
    return 'Must hold at least one item.';
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    return inclusive === false
      ? `Must be greater than ${bound(minimum)}.`
      : `Must be at least ${bound(minimum)}.`;
  }
  return `Must hold at least ${measured(origin, minimum)}.`;
}

function tooBig(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>): string {
  const { origin, maximum, inclusive } = issue;
  if ((origin === 'int' || origin === 'number') && Number(maximum) >= MAX_SAFE) {
    return `Must be an integer between -${MAX_SAFE} and ${MAX_SAFE}.`;
  }
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    return inclusive === false
      ? `Must be less than ${bound(maximum)}.`
      : `Must be at most ${bound(maximum)}.`;
  }
  return `Must hold at most ${measured(origin, maximum)}.`;
}

function oneOf(values: readonly unknown[]): string {
  const listed = values.map((value) => JSON.stringify(value));
  if (listed.length === 1) return `Must be ${listed[0]}.`;
  return `Must be one of ${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}.`;
}

/**
 * One sentence for a schema issue, saying what the member must be and what it was; never the value itself
 * (it may be long or secret).
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'A required member is missing.';
      const expected = EXPECTED[issue.expected] ?? `a ${issue.expected}`;
      return `Must be ${expected}, not ${kindOf(issue.input)}.`;
    }
    case 'too_small':
      return tooSmall(issue as z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>);
    case 'too_big':
      return tooBig(issue as z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>);
    case 'invalid_value':
      return oneOf(issue.values);
    case 'invalid_format':
      if (issue.format === 'base64') return 'Must be base64 (A–Z, a–z, 0–9, "+", "/", "=" padding).';
      if (issue.format === 'regex') return 'Does not have the expected form.';
      return `Must be a valid ${issue.format}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${bound(issue.divisor)}.`;
    case 'unrecognized_keys':
      return issue.keys.length === 1 ? `Unknown member "${issue.keys[0]}".` : 'Unknown members.';
    case 'invalid_union':
      return `Must be one of the accepted forms; ${kindOf(issue.input)} matches none.`;
    case 'invalid_key':
      return 'A member name is not accepted here.';
    case 'invalid_element':
      return 'An element is not accepted here.';
    default:
      return 'Is not accepted here.';
  }
}

/** The parse options that put verdict's words on every issue without a message of its schema's own. */
export const REQUEST_PARSE_OPTIONS = { error: describeIssue } as const;

/** One issue as a parse reports it, with the branches of a union when it is one. */
type ReportedIssue = z.core.$ZodIssue;

/** True when a union branch's issues show the value had that branch's shape (its root type matched). */
function shapeMatches(branch: readonly ReportedIssue[]): boolean {
  return !branch.some((issue) => issue.path.length === 0 && issue.code === 'invalid_type');
}

/**
 * The issues of a parse with each union replaced by the issues of the branch the value was meant for (the one
 * whose root type matched, fewest problems first), so that a problem deep in a message is reported at its own
 * pointer rather than as "matches none" at the list.
 */
export function expandUnions(issues: readonly ReportedIssue[]): ReportedIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const branches = issue.errors.filter(shapeMatches).sort((a, b) => a.length - b.length);
    const chosen = branches[0];
    if (chosen === undefined || chosen.length === 0) return [issue];
    return expandUnions(chosen.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
  });
}
