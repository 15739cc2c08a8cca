import { fail } from '../contract/builders.js';
import { ensureResult } from '../contract/ensure-result.js';
import type { ResultContract } from '../contract/types.js';

/** Error text for a thrown value, without a stack trace. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error)
    return thrown.message.trim() === '' ? thrown.name : `${thrown.name}: ${thrown.message}`;
  const text = String(thrown);
  return text.trim() === '' ? 'A blank value was thrown.' : text;
}

/** Adds the `meta` members the transport profile promises: command, duration and schema version. */
export function withMeta(result: ResultContract, command: string, durationMs: number): ResultContract {
  // Rounded to 0.01 ms: the clock's further digits are noise, not facts worth printing (docs/cli.md).
  const duration_ms = Math.round(Math.max(0, durationMs) * 100) / 100;
  const meta = { ...result.meta, command, duration_ms, schema_version: 1 as const };
  return { ...result, meta } as ResultContract;
}

/** Options of {@link runGuarded}. */
export interface RunGuardedOptions {
  /** A clock in milliseconds; when given, the result gets `meta` (command, duration, schema version). */
  now?: () => number;
  /** When the run started on that clock; default: when {@link runGuarded} was called. */
  started?: number;
}

/**
 * Runs `run` and always resolves to a conforming contract result: a thrown error or rejection becomes an
 * `unexpected_error` failure, a value that breaks the contract becomes `invalid_result_contract` (see
 * {@link ensureResult}), and with a clock the `meta` members are added and the result guarded again.
 * Shared by the CLI's commands, the MCP command tools and every contract tool.
 * @example
 * await runGuarded('hello', () => ok('Hello.'), { now: () => performance.now() })
 * // { success: true, message: 'Hello.', meta: { command: 'hello', duration_ms: 0.1, schema_version: 1 } }
 */
export async function runGuarded(
  name: string,
  run: () => unknown,
  options: RunGuardedOptions = {},
): Promise<ResultContract> {
  const { now } = options;
  const started = options.started ?? now?.();
  let outcome: unknown;
  try {
    outcome = await run();
  } catch (thrown) {
    outcome = fail(`${name} failed unexpectedly.`, {
      error: describeThrown(thrown),
      error_code: 'unexpected_error',
    });
  }
  const result = ensureResult(outcome) as ResultContract;
  if (now === undefined || started === undefined) return result;
  // Guarded again after meta is added, so nothing a definition says can let an invalid document out.
  return ensureResult(withMeta(result, name, now() - started)) as ResultContract;
}
