import { Readable } from 'node:stream';
import { type ResultContract, validateResult } from '../../src/contract/index.js';
import type { CommandContext, CommandDefinition, CommandIo, OptionSpecs } from '../../src/producer/types.js';

/** A command context whose stderr is collected in memory, for tests that call `definition.run` directly. */
export function createTestContext(overrides: Partial<CommandIo> & { json?: boolean } = {}): {
  ctx: CommandContext;
  stderr: string[];
  controller: AbortController;
} {
  const stderr: string[] = [];
  const controller = new AbortController();
  const { json = true, ...ioOverrides } = overrides;
  const io: CommandIo = {
    stdout: { write: () => true },
    stderr: { write: (chunk) => stderr.push(String(chunk)) },
    stdin: Object.assign(Readable.from([]), { isTTY: true }),
    env: { ...process.env },
    cwd: process.cwd(),
    now: () => performance.now(),
    signal: controller.signal,
    ...ioOverrides,
  };
  const ctx: CommandContext = {
    progress: (message) => stderr.push(`${message}\n`),
    log: (message) => stderr.push(`${message}\n`),
    signal: controller.signal,
    io,
    json,
  };
  return { ctx, stderr, controller };
}

/**
 * Runs a definition with the given options (defaults filled in from its specs) and checks that the result
 * conforms to the contract before handing it back.
 */
export async function invokeCommand<O extends OptionSpecs>(
  definition: CommandDefinition<O>,
  given: Record<string, unknown>,
  positionals: string[] = [],
  context = createTestContext(),
): Promise<ResultContract & Record<string, unknown>> {
  const options: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(definition.options)) {
    options[name] = name in given ? given[name] : spec.default;
  }
  const result = await definition.run({ options: options as never, positionals }, context.ctx);
  const report = validateResult(result);
  if (!report.valid) throw new Error(`non-conforming result: ${JSON.stringify(report.violations)}`);
  return result as ResultContract & Record<string, unknown>;
}

/** True when this process runs as root, where file permissions do not stop reads. */
export const runsAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The unprivileged account (nobody) that permission tests run as when this process is root. */
export const NOBODY = 65_534;

/**
 * Runs a reference command as an unprivileged user, for tests of permission errors: in-process like
 * {@link invokeCommand} when this process is not root; as root (where file modes stop no read), as
 * `verdict tool NAME --json` spawned as uid 65534 from the copy of the CLI every user can run. The paths it is
 * given must then be reachable by that user: the folders above them searchable by everyone (mode 0755).
 */
export async function invokeAsUnprivileged<O extends OptionSpecs>(
  definition: CommandDefinition<O>,
  given: Record<string, string>,
): Promise<ResultContract & Record<string, unknown>> {
  if (!runsAsRoot) return invokeCommand(definition, given);
  // Imported here: spawning needs the vitest-provided copy of the CLI, which only root runs use.
  const { spawnCli } = await import('./spawn-cli.js');
  const flags = Object.entries(given).flatMap(([name, value]) => [`--${name}`, value]);
  const spawned = await spawnCli(['tool', definition.name, ...flags, '--json'], { cwd: '/', uid: NOBODY });
  const result = JSON.parse(spawned.stdout) as unknown;
  const report = validateResult(result);
  if (!report.valid) throw new Error(`non-conforming result: ${JSON.stringify(report.violations)}`);
  return result as ResultContract & Record<string, unknown>;
}
