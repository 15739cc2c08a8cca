import type { CommandDefinition } from '../../producer/types.js';
import { conformanceCommand } from './conformance.js';
import { evidenceCommand } from './evidence.js';
import { mcpCommand } from './mcp.js';
import { schemaCommand } from './schema.js';
import { validateCommand } from './validate.js';

/** A subcommand of `verdict`: a command definition run by the transport profile. */
export interface Subcommand {
  /** The word after `verdict`. */
  name: string;
  /** One line for the top-level help. */
  summary: string;
  /** The definition `runCommand` runs. */
  definition: CommandDefinition;
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
    summary: 'Check an MCP tool result against the contract profile of an MCP revision.',
    definition: mcpCommand as unknown as CommandDefinition,
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
    name: 'schema',
    summary: 'Print a JSON Schema verdict publishes.',
    definition: schemaCommand as unknown as CommandDefinition,
  },
];
