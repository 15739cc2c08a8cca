import { McpServer } from '@modelcontextprotocol/server';
import type { CommandDefinition } from '../../producer/types.js';
import { type CommandToolOptions, commandTool } from './command-tool.js';
import { registerContractTool } from './register-contract-tool.js';
import { validateMcpResultTool } from './validate-mcp-result-tool.js';
import { validateResultTool } from './validate-result-tool.js';

/** Options of {@link createVerdictServer}. */
export interface VerdictServerOptions extends CommandToolOptions {
  /** The commands served as tools (verdict serves its reference commands). */
  commands: readonly CommandDefinition[];
  /** The server's version, reported to clients. */
  version: string;
}

/**
 * A fresh `McpServer` with verdict's tools: every given command, `validate_result` and `validate_mcp_result`,
 * each returning contract results. One instance serves one connection (stdio) or one request (HTTP).
 */
export function createVerdictServer(options: VerdictServerOptions): McpServer {
  const server = new McpServer(
    { name: 'verdict', version: options.version },
    {
      // The tool list never changes while serving.
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Every tool returns a QZX Result Contract v1 result in structuredContent: success, message, and error/error_code on failure.',
    },
  );
  const { commands, version: _version, ...toolOptions } = options;
  for (const definition of commands) registerContractTool(server, commandTool(definition, toolOptions));
  registerContractTool(server, validateResultTool);
  registerContractTool(server, validateMcpResultTool);
  return server;
}
