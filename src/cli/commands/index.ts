import { externalCommand } from '../../producer/external-command.js';
import { runCommand } from '../../producer/run-command.js';
import type { CommandDefinition, CommandIo } from '../../producer/types.js';
import { conformanceCommand } from './conformance.js';
import { evidenceCommand } from './evidence.js';
import { mcpCommand } from './mcp.js';
import { runMcpServe } from './mcp-serve.js';
import { normalizeCommand } from './normalize.js';
import { schemaCommand } from './schema.js';
import { runTool, toolListCommand } from './tool.js';
import { validateCommand } from './validate.js';

/** A subcommand of `verdict`: a command definition run by the transport profile. */
export interface Subcommand {
  /** The word after `verdict`. */
  name: string;
  /** One line for the top-level help. */
  summary: string;
  /** The definition `runCommand` runs. */
  definition: CommandDefinition;
  /** Takes over the arguments after the name, for subcommands that have subcommands (`verdict tool NAME`). */
  dispatch?: (argv: readonly string[], io: CommandIo) => Promise<number>;
}

/** Every subcommand of `verdict`, in the order `verdict --help` lists them. */
export const SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: 'validate',
    summary: 'Check JSON documents against QZX Result Contract v1.',
    definition: validateCommand as unknown as CommandDefinition,
  },
  {
    name: 'mcp',
    summary: 'Check an MCP tool result against the contract profile (verdict mcp serve: run the MCP server).',
    definition: mcpCommand as unknown as CommandDefinition,
    // `verdict mcp serve` is a server, not a command with one result: it bypasses the transport profile.
    dispatch: (argv, io) =>
      argv[0] === 'serve'
        ? runMcpServe(argv.slice(1), io)
        : runCommand(mcpCommand as unknown as CommandDefinition, argv, io, { usage: 'verdict mcp' }),
  },
  {
    name: 'evidence',
    summary: 'Check a success + failure pair and write a Conformance Receipt v1.',
    definition: evidenceCommand as unknown as CommandDefinition,
  },
  {
    name: 'conformance',
    summary: 'Run a conformance suite manifest.',
    definition: conformanceCommand as unknown as CommandDefinition,
  },
  {
    name: 'normalize',
    summary: 'Turn a provider response into the unified AI output envelope.',
    definition: normalizeCommand as unknown as CommandDefinition,
  },
  {
    name: 'schema',
    summary: 'Print a JSON Schema verdict publishes.',
    definition: schemaCommand as unknown as CommandDefinition,
  },
  {
    name: 'run',
    summary: 'Run an external command and report how it ended as a contract result.',
    definition: externalCommand as unknown as CommandDefinition,
  },
  {
    name: 'tool',
    summary: 'Run a reference command (verdict tool --list).',
    definition: toolListCommand as unknown as CommandDefinition,
    dispatch: runTool,
  },
];
