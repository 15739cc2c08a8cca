import { GATEWAY_BUNDLE, GATEWAY_PACKAGES } from '../gateway-packages.js';
import type { SubcommandEntry, SubcommandGroup } from '../subcommands.js';
import { VERSION } from '../version.js';
import { validateCommand } from './validate.js';

/**
 * Every subcommand of `verdict`, in the order `verdict --help` lists them. Adding one is adding an entry
 * here: its name, one line of help, and a loader that imports its module only when it is run.
 */
export const SUBCOMMANDS: readonly SubcommandEntry[] = [
  {
    name: 'validate',
    summary: 'Check JSON documents against QZX Result Contract v1 (or the unified AI output contract).',
    // The main job is loaded with the entry: `verdict validate` then reads no second file (start-up time).
    load: () => ({ command: validateCommand }),
  },
  {
    name: 'mcp',
    summary: 'Check an MCP tool result against the contract profile (verdict mcp serve: run the MCP server).',
    load: async () => ({ group: (await import('./mcp.js')).mcpGroup }),
  },
  {
    name: 'evidence',
    summary: 'Check a success + failure pair and write a Conformance Receipt v1.',
    load: async () => ({ command: (await import('./evidence.js')).evidenceCommand }),
  },
  {
    name: 'conformance',
    summary: 'Run a conformance suite manifest.',
    load: async () => ({ command: (await import('./conformance.js')).conformanceCommand }),
  },
  {
    name: 'normalize',
    summary: 'Turn a provider response into the unified AI output envelope.',
    load: async () => ({ command: (await import('./normalize.js')).normalizeCommand }),
  },
  {
    name: 'schema',
    summary: 'Print a JSON Schema verdict publishes.',
    load: async () => ({ command: (await import('./schema.js')).schemaCommand }),
  },
  {
    name: 'run',
    summary: 'Run an external command and report how it ended as a contract result.',
    load: async () => ({ command: (await import('../../producer/external-command.js')).externalCommand }),
  },
  {
    name: 'gateway',
    summary: 'Serve the unified AI output as an HTTP service in front of AI providers.',
    load: async () => ({ handler: (await import('./gateway.js')).runGateway }),
    needs: GATEWAY_PACKAGES,
    bundle: GATEWAY_BUNDLE,
  },
  {
    name: 'tool',
    summary: 'Run a reference command (verdict tool --list).',
    load: async () => ({ group: (await import('./tool.js')).toolGroup }),
  },
];

/** `verdict` itself: the group of every subcommand, with `--version`. */
export const VERDICT: SubcommandGroup = {
  description: 'Produce, check and prove result envelopes (QZX Result Contract v1 compatible).',
  noun: 'command',
  subcommands: SUBCOMMANDS,
  version: VERSION,
};
