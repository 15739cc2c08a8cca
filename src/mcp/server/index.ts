/**
 * The MCP server side of verdict (needs `@modelcontextprotocol/server` 2.x and Node): contract tools on an
 * `McpServer`, command definitions as tools, verdict's own tools, and serving over stdio or Streamable HTTP.
 */
export type { CommandToolOptions } from './command-tool.js';
export { commandTool } from './command-tool.js';
export type { VerdictServerOptions } from './create-verdict-server.js';
export { createVerdictServer, createVerdictServerFactory } from './create-verdict-server.js';
export type { ContractTool, ContractToolContext, ContractToolOptions } from './register-contract-tool.js';
export { DEFAULT_MAX_RESULT_BYTES, registerContractTool } from './register-contract-tool.js';
export type { HttpServeOptions, ServeOptions } from './serve.js';
export { MCP_HTTP_PATH, serveMcp } from './serve.js';
export { validateMcpResultTool } from './validate-mcp-result-tool.js';
export { validateResultTool } from './validate-result-tool.js';
