import { fail } from '../contract/builders.js';
import type { ResultContract } from '../contract/types.js';
import { parseArguments } from './parse-arguments.js';
import { renderHelp, renderResult, styleFor } from './render.js';
import { describeThrown, runGuarded, withMeta } from './run-guarded.js';
import type { CommandContext, CommandDefinition, CommandIo, OptionSpecs } from './types.js';

/** Exit statuses of a command run (see docs/cli.md), plus 130 for an interrupted run (128 + SIGINT). */
export const EXIT = { success: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** How a command is invoked: the words that precede its arguments in usage lines. */
export interface RunOptions {
  /** Usage prefix for help text, such as `verdict tool findFiles`. Default: the command's name. */
  usage?: string;
}

const INTERRUPTED = Symbol('interrupted');

export { describeThrown, withMeta } from './run-guarded.js';

/** The text of one result: the JSON document in `--json` mode, a rendering for a person otherwise. */
function formatResult(result: unknown, io: CommandIo, json: boolean): string {
  return json
    ? `${JSON.stringify(result, null, 2)}\n`
    : renderResult(result as ResultContract, styleFor(io.stdout, io.env));
}

/** Prints one result: the JSON document in `--json` mode, a rendering for a person otherwise. */
export function emitResult(result: unknown, io: CommandIo, json: boolean): void {
  io.stdout.write(formatResult(result, io, json));
}

/**
 * Runs a command under the CLI JSON transport profile (see docs/cli.md) and returns the exit status; never calls
 * `process.exit` and never throws. With `--json`, stdout receives exactly one guarded contract document.
 * @example
 * const status = await runCommand(hello, ['--name', 'Ada', '--json'], nodeIo());
 */
export async function runCommand<O extends OptionSpecs>(
  definition: CommandDefinition<O>,
  argv: readonly string[],
  io: CommandIo,
  options: RunOptions = {},
): Promise<number> {
  const started = io.now();
  const parsed = parseArguments(argv, definition.options, definition.positionals);
  const json = parsed.json;
  if (parsed.help) {
    io.stdout.write(renderHelp(definition as unknown as CommandDefinition, options.usage ?? definition.name));
    return EXIT.success;
  }
  if (!parsed.ok) {
    const usage = fail(`Invalid arguments for ${definition.name}: ${parsed.message}`, {
      error: parsed.message,
      error_code: 'invalid_arguments',
      details: { usage: `Run ${options.usage ?? definition.name} --help for the options.` },
    });
    const final = withMeta(usage, definition.name, io.now() - started);
    emitResult(final, io, json);
    if (!json) io.stderr.write(`Run ${options.usage ?? definition.name} --help for the options.\n`);
    return EXIT.usage;
  }

  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(io.signal?.reason);
  if (io.signal?.aborted) controller.abort(io.signal.reason);
  io.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const interrupted = new Promise<typeof INTERRUPTED>((resolve) => {
    if (controller.signal.aborted) resolve(INTERRUPTED);
    controller.signal.addEventListener('abort', () => resolve(INTERRUPTED), { once: true });
  });
  const ctx: CommandContext = {
    progress: (message) => io.stderr.write(`${message}\n`),
    log: (message) => io.stderr.write(`${message}\n`),
    signal: controller.signal,
    io,
    json,
  };

  let wasInterrupted = false;
  const final = await runGuarded(
    definition.name,
    async () => {
      const running = Promise.resolve().then(() =>
        definition.run({ options: parsed.options as never, positionals: parsed.positionals }, ctx),
      );
      const outcome = await Promise.race([running, interrupted]);
      if (outcome !== INTERRUPTED) return outcome;
      // The run may still settle after an interruption; its outcome no longer matters.
      running.catch(() => undefined);
      wasInterrupted = true;
      return fail(`${definition.name} was interrupted before it finished.`, {
        error: 'The run was interrupted (SIGINT).',
        error_code: 'interrupted',
      });
    },
    { now: () => io.now(), started },
  ).finally(() => io.signal?.removeEventListener('abort', onOuterAbort));
  // A usage error found by the command itself (not the parser) is still a usage error (see docs/cli.md).
  let status: number = wasInterrupted
    ? EXIT.interrupted
    : final.success
      ? EXIT.success
      : final.error_code === 'invalid_arguments'
        ? EXIT.usage
        : EXIT.failure;
  let product: unknown;
  try {
    product = wasInterrupted || !definition.product ? undefined : definition.product(final, { json });
  } catch {
    product = undefined;
  }
  let text: string;
  try {
    text = product !== undefined ? `${JSON.stringify(product, null, 2)}\n` : formatResult(final, io, json);
  } catch (thrown) {
    // A conforming result can still hold what JSON cannot (a BigInt, a cycle, a throwing toJSON).
    status = EXIT.failure;
    const unwritable = fail(`${definition.name} produced a result that cannot be written as JSON.`, {
      error: describeThrown(thrown),
      error_code: 'unexpected_error',
    });
    text = formatResult(withMeta(unwritable, definition.name, io.now() - started), io, json);
  }
  io.stdout.write(text);
  return status;
}
