import { REFERENCE_COMMANDS } from '../../commands/index.js';
import { fail, ok } from '../../contract/builders.js';
import { defineCommand } from '../../producer/define-command.js';
import { EXIT, emitResult, runCommand, withMeta } from '../../producer/run-command.js';
import type { CommandIo } from '../../producer/types.js';

/** `verdict tool --list`: names every reference command with its options and error codes. */
export const toolListCommand = defineCommand({
  name: 'tool',
  description:
    'Run a reference command: verdict tool NAME [options] [--json]. With --list (or no NAME), list them.',
  options: { list: { type: 'boolean', description: 'List the reference commands.', default: false } },
  outputSchema: {
    type: 'object',
    required: ['tools'],
    properties: {
      tools: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'description', 'options', 'error_codes'],
          properties: {
            name: { type: 'string' },
            description: { type: 'string' },
            options: { type: 'array', items: { type: 'string' } },
            error_codes: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  },
  run() {
    const tools = REFERENCE_COMMANDS.map((command) => ({
      name: command.name,
      description: command.description,
      options: Object.keys(command.options).map((option) => `--${option}`),
      error_codes: Object.keys(command.errorCodes ?? {}),
    }));
    return ok(`${tools.length} reference commands: ${tools.map((tool) => tool.name).join(', ')}.`, { tools });
  },
});

/**
 * Dispatches `verdict tool …`: `--list` (or nothing) lists the reference commands, `NAME [options]` runs
 * one under the transport profile, and an unknown NAME is a usage error (exit 2).
 */
export async function runTool(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-')) {
    return runCommand(toolListCommand, argv, io, { usage: 'verdict tool' });
  }
  const command = REFERENCE_COMMANDS.find((candidate) => candidate.name === name);
  if (command !== undefined) return runCommand(command, rest, io, { usage: `verdict tool ${name}` });
  const names = REFERENCE_COMMANDS.map((candidate) => candidate.name);
  const usage = fail(`Unknown tool ${JSON.stringify(name)}. Run verdict tool --list for the tools.`, {
    error: `Known tools: ${names.join(', ')}.`,
    error_code: 'invalid_arguments',
  });
  emitResult(withMeta(usage, 'tool', 0), io, rest.includes('--json'));
  return EXIT.usage;
}
