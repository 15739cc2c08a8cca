/**
 * verdict for MCP servers written with `@modelcontextprotocol/sdk` 1.x (needs that SDK and zod, its peer):
 * contract tools on a v1 `McpServer`, and zod schemas that advertise verdict's JSON Schemas unchanged.
 * The 2.x SDK's counterpart is `verdict/mcp/server`; both share the pure mapping of `verdict/mcp`.
 */
export type { ContractTool, ContractToolContext } from './register-contract-tool.js';
export { registerContractTool } from './register-contract-tool.js';
export { resultOutputZodSchema } from './result-output-zod-schema.js';
export type { JsonSchemaZod, ZodFromJsonSchemaOptions } from './zod-from-json-schema.js';
export { zodFromJsonSchema } from './zod-from-json-schema.js';
