import { fail } from '../contract/builders.js';
import { EXIT, emitResult, runCommand, withMeta } from '../producer/run-command.js';
import type { CommandIo } from '../producer/types.js';
import { SUBCOMMANDS } from './commands/index.js';
import { VERSION } from './version.js';

export { VERSION };

function topLevelHelp(): string {
  const width = Math.max(...SUBCOMMANDS.map((s) => s.name.length));
  return [
    'Usage: verdict <command> [options]',
    '',
    'Produce, check and prove result envelopes (QZX Result Contract v1 compatible).',
    '',
    'Commands:',
    ...SUBCOMMANDS.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    '',
    'Options:',
    '  --json        After the command: print exactly one JSON result document on stdout.',
    '  -h, --help    Show help (verdict <command> --help for a command).',
    '  -v, --version Print the version.',
    '',
    'Exit status: 0 success, 1 failure, 2 usage error.',
    '',
  ].join('\n');
}

/**
 * The `verdict` command line: dispatches to a subcommand and returns the exit status.
 * Never calls `process.exit`; `io` carries every stream, so tests run it in-process.
 */
export async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.success;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(topLevelHelp());
    return first === undefined ? EXIT.usage : EXIT.success;
  }
  const subcommand = SUBCOMMANDS.find((s) => s.name === first);
  if (subcommand === undefined) {
    const json = argv.includes('--json');
    const message = first.startsWith('-')
      ? `Unknown option ${first}.`
      : `Unknown command ${JSON.stringify(first)}.`;
    const result = fail(`${message} Run verdict --help for the commands.`, {
      error: message,
      error_code: 'invalid_arguments',
      details: { commands: SUBCOMMANDS.map((s) => s.name) },
    });
    emitResult(withMeta(result, 'verdict', 0), io, json);
    return EXIT.usage;
  }
  const loaded = await subcommand.load();
  if (loaded.dispatch) return loaded.dispatch(rest, io);
  return runCommand(loaded.definition, rest, io, { usage: `verdict ${subcommand.name}` });
}
