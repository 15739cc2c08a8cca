import type { CommandDefinition, CommandIo } from '../../producer/types.js';
import { validateCommand } from './validate.js';

/** What a loaded subcommand offers: its definition, and optionally its own dispatcher. */
export interface SubcommandModule {
  /** The definition `runCommand` runs. */
  definition: CommandDefinition;
  /** Takes over the arguments after the name, for subcommands that have subcommands (`verdict tool NAME`). */
  dispatch?: (argv: readonly string[], io: CommandIo) => Promise<number>;
}

/** A subcommand of `verdict`: its name and summary, and a loader for the code behind it. */
export interface Subcommand {
  /** The word after `verdict`. */
  name: string;
  /** One line for the top-level help. */
  summary: string;
  /** Imports the subcommand on demand, so `verdict validate` never loads the MCP SDK (start-up time). */
  load(): Promise<SubcommandModule>;
}

const asDefinition = (definition: unknown) => definition as CommandDefinition;

/** Every subcommand of `verdict`, in the order `verdict --help` lists them. */
export const SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: 'validate',
    summary: 'Check JSON documents against QZX Result Contract v1 (or the unified AI output contract).',
    // The main job is loaded with the entry: `verdict validate` then reads no second file (start-up time).
    load: async () => ({ definition: asDefinition(validateCommand) }),
  },
  {
    name: 'mcp',
    summary: 'Check an MCP tool result against the contract profile (verdict mcp serve: run the MCP server).',
    load: async () => {
      const definition = asDefinition((await import('./mcp.js')).mcpCommand);
      const { runCommand } = await import('../../producer/run-command.js');
      return {
        definition,
        // `verdict mcp serve` is a server, not a command with one result: it bypasses the transport profile.
        dispatch: async (argv, io) =>
          argv[0] === 'serve'
            ? (await import('./mcp-serve.js')).runMcpServe(argv.slice(1), io)
            : runCommand(definition, argv, io, { usage: 'verdict mcp' }),
      };
    },
  },
  {
    name: 'evidence',
    summary: 'Check a success + failure pair and write a Conformance Receipt v1.',
    load: async () => ({ definition: asDefinition((await import('./evidence.js')).evidenceCommand) }),
  },
  {
    name: 'conformance',
    summary: 'Run a conformance suite manifest.',
    load: async () => ({ definition: asDefinition((await import('./conformance.js')).conformanceCommand) }),
  },
  {
    name: 'normalize',
    summary: 'Turn a provider response into the unified AI output envelope.',
    load: async () => ({ definition: asDefinition((await import('./normalize.js')).normalizeCommand) }),
  },
  {
    name: 'schema',
    summary: 'Print a JSON Schema verdict publishes.',
    load: async () => ({ definition: asDefinition((await import('./schema.js')).schemaCommand) }),
  },
  {
    name: 'run',
    summary: 'Run an external command and report how it ended as a contract result.',
    load: async () => ({
      definition: asDefinition((await import('../../producer/external-command.js')).externalCommand),
    }),
  },
  {
    name: 'gateway',
    summary: 'Serve the unified AI output as an HTTP service in front of AI providers.',
    load: async () => {
      const { runGateway } = await import('./gateway.js');
      return {
        definition: asDefinition({ name: 'gateway', description: 'Serve the gateway.', options: {} }),
        dispatch: runGateway,
      };
    },
  },
  {
    name: 'tool',
    summary: 'Run a reference command (verdict tool --list).',
    load: async () => {
      const { runTool, toolListCommand } = await import('./tool.js');
      return { definition: asDefinition(toolListCommand), dispatch: runTool };
    },
  },
];
