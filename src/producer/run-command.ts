import { fail } from '../contract/builders.js';
import { ensureResult } from '../contract/ensure-result.js';
import type { ResultContract } from '../contract/types.js';
import type { TextPosition } from '../json/locate.js';
import { interruptedStatus, interruptSignalOf } from './interrupt.js';
import { parseArguments } from './parse-arguments.js';
import { renderContextFor, renderResult, styleFor } from './render.js';
import { type HelpEntry, renderHelp, renderUsageError } from './render-help.js';
import type { CommandContext, CommandDefinition, CommandIo, OptionSpecs, RenderContext } from './types.js';

/**
 * Exit statuses of a command run, plus 130 for a run interrupted by SIGINT; SIGTERM and SIGHUP give 143 and
 * 129 (128 + the signal's number, see {@link interruptedStatus}).
 */
export const EXIT = { success: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** How a command is invoked: the words that precede its arguments in usage lines. */
export interface RunOptions {
  /** Usage prefix for help text, such as `verdict tool findFiles`. Default: the command's name. */
  usage?: string;
  /** Subcommands listed in the help, for a command that also has some (`verdict tool`, `verdict mcp`). */
  subcommands?: readonly HelpEntry[];
}

const INTERRUPTED = Symbol('interrupted');

/** Error text for a thrown value, without a stack trace. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error)
    return thrown.message.trim() === '' ? thrown.name : `${thrown.name}: ${thrown.message}`;
  const text = String(thrown);
  return text.trim() === '' ? 'A blank value was thrown.' : text;
}

/** The text of one result: the JSON document in `--json` mode, a rendering for a person otherwise. */
function formatResult(
  result: ResultContract,
  io: CommandIo,
  json: boolean,
  render: (result: ResultContract, context: RenderContext) => string = renderResult,
  context: RenderContext = renderContextFor(io.stdout, io.env),
): string {
  return json ? `${JSON.stringify(result, null, 2)}\n` : render(result, context);
}

/** Prints one result: the JSON document in `--json` mode, a rendering for a person otherwise. */
export function emitResult(result: ResultContract, io: CommandIo, json: boolean): void {
  io.stdout.write(formatResult(result, io, json));
}

/**
 * Reports a usage error and returns its exit status (2). With `--json`, the contract document goes to stdout
 * as the transport profile requires; for people, the message and a pointer to the help go to stderr.
 */
export function reportUsageError(
  result: ResultContract,
  io: CommandIo,
  json: boolean,
  usage: string,
): number {
  if (json) emitResult(result, io, true);
  else io.stderr.write(renderUsageError(result, usage, styleFor(io.stderr, io.env)));
  return EXIT.usage;
}

/** Adds the `meta` members the transport profile promises: command, duration and schema version. */
export function withMeta(result: ResultContract, command: string, durationMs: number): ResultContract {
  const meta = { ...result.meta, command, duration_ms: Math.max(0, durationMs), schema_version: 1 as const };
  return { ...result, meta } as ResultContract;
}

/**
 * Runs a command under the CLI JSON transport profile (SPEC §2) and returns the exit status; never calls
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
  const usage = options.usage ?? definition.name;
  const parsed = parseArguments(argv, definition.options, definition.positionals);
  const json = parsed.json;
  if (parsed.help) {
    io.stdout.write(renderHelp(definition, usage, options.subcommands));
    return EXIT.success;
  }
  if (!parsed.ok) {
    const result = fail(`Invalid arguments for ${definition.name}: ${parsed.message}`, {
      error: parsed.message,
      error_code: 'invalid_arguments',
      details: { usage: `Run ${usage} --help for the options.` },
    });
    return reportUsageError(withMeta(result, definition.name, io.now() - started), io, json, usage);
  }

  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(io.signal?.reason);
  if (io.signal?.aborted) controller.abort(io.signal.reason);
  io.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const interrupted = new Promise<typeof INTERRUPTED>((resolve) => {
    if (controller.signal.aborted) resolve(INTERRUPTED);
    controller.signal.addEventListener('abort', () => resolve(INTERRUPTED), { once: true });
  });
  // Places in the inputs' texts, recorded for the rendering only (never in --json mode, never in the document).
  const places = new Map<string, Map<string, TextPosition>>();
  const ctx: CommandContext = {
    progress: (message) => io.stderr.write(`${message}\n`),
    log: (message) => io.stderr.write(`${message}\n`),
    signal: controller.signal,
    io,
    json,
    place(file, pointer, position) {
      if (json) return;
      const byPointer = places.get(file) ?? new Map<string, TextPosition>();
      byPointer.set(pointer, position);
      places.set(file, byPointer);
    },
  };
  const renderContext: RenderContext = {
    ...renderContextFor(io.stdout, io.env),
    placeOf: (file, pointer) => places.get(file)?.get(pointer),
  };
  const render = definition.render?.bind(definition) ?? renderResult;
  const format = (result: ResultContract) => formatResult(result, io, json, render, renderContext);

  let outcome: unknown;
  try {
    const running = Promise.resolve().then(() =>
      definition.run({ options: parsed.options as never, positionals: parsed.positionals }, ctx),
    );
    // A command that answers an interruption itself (it stops its work and says what it stopped) is awaited.
    outcome = await (definition.answersInterrupt ? running : Promise.race([running, interrupted]));
    // The run may still settle after an interruption; its outcome no longer matters.
    if (outcome === INTERRUPTED) running.catch(() => undefined);
  } catch (thrown) {
    outcome = fail(`${definition.name} failed unexpectedly.`, {
      error: describeThrown(thrown),
      error_code: 'unexpected_error',
    });
  } finally {
    io.signal?.removeEventListener('abort', onOuterAbort);
  }

  let status: number;
  let result: ResultContract;
  if (outcome === INTERRUPTED) {
    result = fail(`${definition.name} was interrupted before it finished.`, {
      error: `The run was interrupted (${interruptSignalOf(controller.signal.reason)}).`,
      error_code: 'interrupted',
    });
    status = interruptedStatus(controller.signal.reason);
  } else {
    result = ensureResult(outcome) as ResultContract;
    // A usage error found by the command itself (not the parser) is still a usage error (SPEC §2).
    status = result.success
      ? EXIT.success
      : result.error_code === 'invalid_arguments'
        ? EXIT.usage
        : result.error_code === 'interrupted' && controller.signal.aborted
          ? interruptedStatus(controller.signal.reason)
          : EXIT.failure;
  }
  // Guarded again after meta is added, so nothing a definition says can let an invalid document out.
  const final = ensureResult(withMeta(result, definition.name, io.now() - started)) as ResultContract;
  let product: unknown;
  try {
    product =
      outcome === INTERRUPTED || !definition.product ? undefined : definition.product(final, { json });
  } catch {
    product = undefined;
  }
  let text: string;
  try {
    text = product !== undefined ? `${JSON.stringify(product, null, 2)}\n` : format(final);
  } catch (thrown) {
    // A conforming result can still hold what JSON cannot (a BigInt, a cycle, a throwing toJSON).
    status = EXIT.failure;
    const unwritable = fail(`${definition.name} produced a result that cannot be written as JSON.`, {
      error: describeThrown(thrown),
      error_code: 'unexpected_error',
    });
    text = formatResult(withMeta(unwritable, definition.name, io.now() - started), io, json);
  }
  // A usage error the command found itself is reported as the parser's are: on stderr for people.
  if (status === EXIT.usage && !json && product === undefined)
    return reportUsageError(final, io, false, usage);
  io.stdout.write(text);
  return status;
}
