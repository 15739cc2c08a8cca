import { McpServer } from '@modelcontextprotocol/server';
import type { CommandDefinition } from '../../producer/types.js';
import { type CommandToolOptions, commandTool } from './command-tool.js';
import {
  type ContractTool,
  type ContractToolOptions,
  registerContractTool,
} from './register-contract-tool.js';
import { validateMcpResultTool } from './validate-mcp-result-tool.js';
import { validateResultTool } from './validate-result-tool.js';

/** Options of {@link createVerdictServer}. */
export interface VerdictServerOptions extends CommandToolOptions, ContractToolOptions {
  /** The commands served as tools (verdict serves its reference commands). */
  commands: readonly CommandDefinition[];
  /** The server's version, reported to clients. */
  version: string;
}

/**
 * A factory of `McpServer` instances with verdict's tools: every given command, `validate_result` and
 * `validate_mcp_result`, each returning contract results. The tools, their schemas and compiled validators
 * are built once, when the factory is made; each call only assembles a server from them, which is what
 * serving one instance per HTTP request needs.
 */
export function createVerdictServerFactory(options: VerdictServerOptions): () => McpServer {
  const { commands, version, maxResultBytes, log, ...rest } = options;
  const toolOptions: CommandToolOptions = {
    ...rest,
    ...(log === undefined ? {} : { log }),
    ...(maxResultBytes === undefined ? {} : { maxResultBytes }),
  };
  const tools: ContractTool[] = [
    ...commands.map((definition) => commandTool(definition, toolOptions)),
    validateResultTool,
    validateMcpResultTool,
  ];
  const served: ContractToolOptions = {
    ...(log === undefined ? {} : { log }),
    ...(maxResultBytes === undefined ? {} : { maxResultBytes }),
  };
  return () => {
    const server = new McpServer(
      { name: 'verdict', version },
      {
        // The tool list never changes while serving.
        capabilities: { tools: { listChanged: false } },
        instructions:
          'Every tool returns a QZX Result Contract v1 result in structuredContent: success, message, and error/error_code on failure.',
      },
    );
    for (const tool of tools) registerContractTool(server, tool, served);
    return server;
  };
}

/**
 * A fresh `McpServer` with verdict's tools (see {@link createVerdictServerFactory}). One instance serves one
 * connection (stdio) or one request (HTTP); to make many, make a factory once and call it.
 */
export function createVerdictServer(options: VerdictServerOptions): McpServer {
  return createVerdictServerFactory(options)();
}
