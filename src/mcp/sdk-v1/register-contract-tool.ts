import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '../../contract/schema.js';
import { VerdictError } from '../../errors.js';
import type { ContractToolDefinition } from '../contract-tool-definition.js';
import { guardToolOutcome } from '../guard-tool-outcome.js';
import { type ContractCallToolResult, toCallToolResult } from '../to-call-tool-result.js';
import { resultOutputZodSchema } from './result-output-zod-schema.js';
import { type JsonSchemaZod, zodFromJsonSchema } from './zod-from-json-schema.js';

/** What a contract tool's handler receives besides its arguments, on an `@modelcontextprotocol/sdk` 1.x server. */
export interface ContractToolContext {
  /** Aborted when the client cancels the call or the connection ends. */
  signal: AbortSignal;
  /** The v1 SDK's own request context (`sendNotification`, `authInfo`, …). */
  mcp: RequestHandlerExtra<ServerRequest, ServerNotification>;
}

/** A tool whose handler returns a contract result, for an `@modelcontextprotocol/sdk` 1.x `McpServer`. */
export type ContractTool = ContractToolDefinition<ContractToolContext, ToolAnnotations>;

type ToolsCallHandler = (request: unknown, extra: unknown) => Promise<unknown>;

const NO_ARGUMENTS: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/** Argument schemas of the contract tools of each server, read by the argument gate. */
const gates = new WeakMap<McpServer, Map<string, JsonSchemaZod>>();

/**
 * Puts an argument check in front of the v1 `McpServer`'s `tools/call` handler. The v1 SDK turns an unknown
 * tool or invalid arguments into an `isError` result without `structuredContent`; verdict keeps both JSON-RPC
 * `-32602` errors (see docs/mcp.md), so no tool result ever exists that does not carry a contract result.
 */
function installArgumentGate(server: McpServer): Map<string, JsonSchemaZod> {
  const existing = gates.get(server);
  if (existing) return existing;
  const schemas = new Map<string, JsonSchemaZod>();
  gates.set(server, schemas);
  // The v1 SDK keeps its handlers in Protocol's `_requestHandlers` and its tools in `_registeredTools`; neither
  // has a public accessor in 1.x.
  const low = server.server as unknown as { _requestHandlers?: Map<string, ToolsCallHandler> };
  const registered = (server as unknown as { _registeredTools?: Record<string, unknown> })._registeredTools;
  const inner = low._requestHandlers?.get('tools/call');
  if (inner === undefined || typeof registered !== 'object' || registered === null) {
    throw new VerdictError(
      'not_supported',
      'This McpServer does not keep its tools/call handler where @modelcontextprotocol/sdk 1.32 does; verdict/mcp/sdk-v1 supports @modelcontextprotocol/sdk ^1.32.',
    );
  }
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    if (!Object.hasOwn(registered, name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    const schema = schemas.get(name);
    if (schema !== undefined) {
      const checked = await schema.safeParseAsync(args ?? {});
      if (!checked.success) {
        const reasons = checked.error.issues.map((issue) => issue.message).join('; ');
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${name}: ${reasons}`);
      }
    }
    return (await inner(request, extra)) as never;
  });
  return schemas;
}

/**
 * Registers a contract-returning handler as a tool on an `McpServer` of `@modelcontextprotocol/sdk` 1.x, the
 * way `registerContractTool` from `verdict/mcp/server` does on the 2.x SDK. The tool advertises
 * `resultOutputSchema(tool.outputSchema)` (classified `canonical_allof`); every call answers with a completed
 * tool result carrying a conforming contract result: a thrown error becomes `unexpected_error`, a result that
 * violates the contract or the published outputSchema becomes `invalid_result_contract`. Unknown tools and
 * invalid arguments are JSON-RPC protocol errors (`-32602`).
 * @example
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { ok } from 'verdict';
 * import { registerContractTool } from 'verdict/mcp/sdk-v1';
 * const server = new McpServer({ name: 'greeter', version: '1.0.0' });
 * registerContractTool(server, {
 *   name: 'hello',
 *   description: 'Greets someone.',
 *   inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
 *   run: (args) => ok(`Hello, ${String(args.name)}.`),
 * });
 */
export function registerContractTool(server: McpServer, tool: ContractTool): RegisteredTool {
  const input = zodFromJsonSchema(tool.inputSchema ?? NO_ARGUMENTS);
  const output = resultOutputZodSchema(tool.outputSchema);
  const config = {
    description: tool.description,
    inputSchema: input,
    outputSchema: output,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
  const registered = server.registerTool(
    tool.name,
    config,
    async (args, extra): Promise<ContractCallToolResult> => {
      const ctx: ContractToolContext = { signal: extra.signal, mcp: extra };
      const result = await guardToolOutcome(
        tool.name,
        () => tool.run(args, ctx),
        async (success) => {
          const checked = await output.safeParseAsync(success);
          return checked.success ? undefined : checked.error.issues.map((issue) => issue.message).join('; ');
        },
      );
      // The 1.x SDK negotiates 2025-11-25 at most, so its results never carry `resultType` (from 2026-07-28).
      return toCallToolResult(result, { revision: '2025-11-25' });
    },
  );
  installArgumentGate(server).set(tool.name, input);
  return registered;
}
