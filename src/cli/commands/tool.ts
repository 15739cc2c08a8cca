import { REFERENCE_COMMANDS } from '../../commands/index.js';
import { ok } from '../../contract/builders.js';
import { defineCommand } from '../../producer/define-command.js';
import { renderResult } from '../../producer/render.js';
import type { SubcommandGroup } from '../subcommands.js';

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
  // For people: name and what it does; `verdict tool NAME --help` has the options and codes.
  render: (result, context) =>
    `${renderResult(result, context, { columns: { tools: ['name', 'description'] } }).trimEnd()}\n  ${context.style.dim('verdict tool NAME --help shows the options and error codes of one.')}\n`,
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

/** `verdict tool`: each reference command by name; with `--list` (or no NAME), the list of them. */
export const toolGroup: SubcommandGroup = {
  description: toolListCommand.description,
  noun: 'tool',
  fallback: toolListCommand,
  subcommands: REFERENCE_COMMANDS.map((command) => ({
    name: command.name,
    summary: command.description,
    load: () => ({ command }),
  })),
};
