import { fail } from '../contract/builders.js';
import { ensureResult } from '../contract/ensure-result.js';
import type { ResultContract } from '../contract/types.js';
import { describeThrown } from '../producer/run-command.js';

/**
 * Runs a contract tool's handler and guarantees a conforming result: a thrown error becomes an
 * `unexpected_error` failure, a non-conforming outcome becomes `invalid_result_contract`, and a success that
 * `checkSuccess` rejects (it returns why) becomes `invalid_result_contract` naming the published outputSchema.
 */
export async function guardToolOutcome(
  toolName: string,
  run: () => unknown,
  checkSuccess: (result: ResultContract) => string | undefined | Promise<string | undefined>,
): Promise<ResultContract> {
  let outcome: unknown;
  try {
    outcome = await run();
  } catch (thrown) {
    outcome = fail(`${toolName} failed unexpectedly.`, {
      error: describeThrown(thrown),
      error_code: 'unexpected_error',
    });
  }
  const result = ensureResult(outcome) as ResultContract;
  if (!result.success) return result;
  // A success must also match the domain schema the tool publishes, or clients reject the call.
  const problem = await checkSuccess(result);
  if (problem === undefined) return result;
  return ensureResult(
    fail(`${toolName} returned a result that does not match its published outputSchema.`, {
      error: `The result does not match the tool's outputSchema: ${problem}.`,
      error_code: 'invalid_result_contract',
      details: { issues: [problem] },
    }),
  ) as ResultContract;
}
