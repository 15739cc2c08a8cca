import { expect } from 'vitest';
import { statusForCode, type UnifiedOutput, validateUnifiedOutput } from '../../src/unified/index.js';
import { validateWithAjv } from '../unified/unified-schema.js';

/** POST `body` as JSON to `path` of an in-process gateway (`createGateway(…).request`). */
export function postJson(
  gateway: { request(path: string, init: RequestInit): Response | Promise<Response> },
  path: string,
  body: unknown,
): Promise<Response> {
  return Promise.resolve(
    gateway.request(path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  );
}

/** A gateway answer read as an envelope. */
export interface Answer {
  status: number;
  headers: Headers;
  envelope: UnifiedOutput;
}

/**
 * Read a response as an envelope and check the gateway's invariants: it validates (verdict and Ajv), its status
 * is 200 for a success or the status of its code, and `x-trace-id` echoes `metadata.trace_id`.
 */
export async function readEnvelope(response: Response): Promise<Answer> {
  const text = await response.text();
  let envelope: UnifiedOutput;
  try {
    envelope = JSON.parse(text) as UnifiedOutput;
  } catch {
    throw new Error(`Not JSON (status ${response.status}): ${text.slice(0, 200)}`);
  }
  expect(validateUnifiedOutput(envelope).violations).toEqual([]);
  expect(validateWithAjv(envelope), JSON.stringify(validateWithAjv.errors)).toBe(true);
  expect(response.status).toBe(envelope.success ? 200 : statusForCode(envelope.error.code));
  expect(response.headers.get('x-trace-id')).toBe(envelope.metadata.trace_id);
  return { status: response.status, headers: response.headers, envelope };
}

/** A server-sent-events body split into its events. */
export function parseSse(text: string): { event: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event =
        lines
          .find((line) => line.startsWith('event:'))
          ?.slice(6)
          .trim() ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      return { event, data };
    });
}

/** The final envelope of a streamed answer, checked like any envelope; the deltas before it. */
export function readStreamEnvelope(text: string): { deltas: string[]; envelope: UnifiedOutput } {
  const events = parseSse(text);
  const last = events.at(-1);
  expect(last?.event).toBe('envelope');
  expect(events.filter((event) => event.event === 'envelope')).toHaveLength(1);
  const envelope = JSON.parse(last?.data ?? '') as UnifiedOutput;
  expect(validateUnifiedOutput(envelope).violations).toEqual([]);
  const deltas = events
    .filter((event) => event.event === 'delta')
    .map((event) => (JSON.parse(event.data) as { text: string }).text);
  return { deltas, envelope };
}

/** Phrases of the validation library's own messages, which a request problem must never show. */
export const LIBRARY_PHRASES = [
  /Invalid input/i,
  /expected .* received/i,
  /Too (big|small)/,
  /<=|>=/,
  /Invalid option/,
  /Unrecognized key/,
  /Invalid string/,
];

/** Check that the gateway's own request problems are in verdict's words, none in the validation library's. */
export function expectOwnWords(envelope: UnifiedOutput): void {
  if (envelope.success || envelope.provider !== 'system' || envelope.error.code !== 'VALIDATION_ERROR')
    return;
  const problems = (envelope.error.details.problems ?? []) as { message?: unknown; path?: unknown }[];
  for (const text of [envelope.error.message, ...problems.map((problem) => String(problem.message))]) {
    // A member name the request wrote (quoted in the message, or in a problem's pointer) may spell anything,
    // ">=" included.
    let own = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    for (const problem of problems)
      if (typeof problem.path === 'string') own = own.split(problem.path).join('');
    for (const phrase of LIBRARY_PHRASES) expect(own).not.toMatch(phrase);
  }
}
