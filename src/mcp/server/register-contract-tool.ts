import {
  fromJsonSchema,
  type JsonSchemaType,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type RegisteredTool,
  type ServerContext,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { fail } from '../../contract/builders.js';
import { ensureResult } from '../../contract/ensure-result.js';
import type { JsonSchema } from '../../contract/schema.js';
import type { ResultContract } from '../../contract/types.js';
import { runGuarded } from '../../producer/run-guarded.js';
import { resultOutputSchema } from '../result-output-schema.js';
import { toCallToolResult } from '../to-call-tool-result.js';

/** What a contract tool's handler receives besides its arguments. */
export interface ContractToolContext {
  /** Aborted when the client cancels the call or the connection ends. */
  signal: AbortSignal;
  /** The MCP revision of the connection, when the SDK knows it. */
  revision: string | undefined;
  /** The SDK's own request context, for anything else. */
  mcp: ServerContext;
}

/** A tool whose handler returns a contract result: its name, its schemas and the handler. */
export interface ContractTool {
  /** The tool name clients call. */
  name: string;
  /** A display name. */
  title?: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON Schema of the arguments (an object schema); default: no arguments. */
  inputSchema?: JsonSchema;
  /** JSON Schema of the domain fields a success carries; published through {@link resultOutputSchema}. */
  outputSchema?: JsonSchema;
  /** MCP tool annotations (`readOnlyHint`, …). */
  annotations?: ToolAnnotations;
  /** Does the work; a thrown error becomes an `unexpected_error` failure result, never a protocol error. */
  run(args: Record<string, unknown>, ctx: ContractToolContext): ResultContract | Promise<ResultContract>;
}

type ToolsCallHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

const NO_ARGUMENTS: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/** Argument schemas of the contract tools of each server, read by the argument gate. */
const gates = new WeakMap<McpServer, Map<string, StandardSchemaWithJSON>>();

function describeIssues(
  issues: readonly { message: string; path?: readonly unknown[] | undefined }[],
): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((p) =>
        typeof p === 'object' && p !== null && 'key' in p ? p.key : p,
      );
      return path.length > 0 ? `${path.join('.')}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * Puts an argument check in front of `McpServer`'s `tools/call` handler. McpServer 2.x turns invalid arguments
 * into an `isError` result without `structuredContent` (SEP-1303); verdict keeps them JSON-RPC `-32602`
 * errors (see docs/mcp.md), so no tool result ever exists that does not carry a contract result.
 */
function installArgumentGate(server: McpServer): Map<string, StandardSchemaWithJSON> {
  const existing = gates.get(server);
  if (existing) return existing;
  const schemas = new Map<string, StandardSchemaWithJSON>();
  gates.set(server, schemas);
  // `_getRequestHandler` is the SDK's protected accessor for a stored handler (Protocol in core).
  const low = server.server as unknown as {
    _getRequestHandler(method: string): ToolsCallHandler | undefined;
  };
  const inner = low._getRequestHandler('tools/call');
  if (inner === undefined) throw new Error('McpServer has no tools/call handler to guard.');
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const schema = schemas.get(name);
    if (schema !== undefined) {
      const checked = await schema['~standard'].validate(args ?? {});
      if (checked.issues !== undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Invalid arguments for tool ${name}: ${describeIssues(checked.issues)}`,
        );
      }
    }
    return (await inner(request, ctx)) as never;
  });
  return schemas;
}

/** The guarded result of one call: thrown errors and invalid results become conforming failures. */
async function callContractTool(
  tool: ContractTool,
  output: StandardSchemaWithJSON,
  args: Record<string, unknown>,
  ctx: ContractToolContext,
): Promise<ResultContract> {
  const result = await runGuarded(tool.name, () => tool.run(args, ctx));
  if (!result.success) return result;
  // A success must also match the domain schema the tool publishes, or clients reject the call.
  const checked = await output['~standard'].validate(result);
  if (checked.issues === undefined) return result;
  return ensureResult(
    fail(`${tool.name} returned a result that does not match its published outputSchema.`, {
      error: `The result does not match the tool's outputSchema: ${describeIssues(checked.issues)}.`,
      error_code: 'invalid_result_contract',
      details: { issues: checked.issues.map((issue) => issue.message) },
    }),
  ) as ResultContract;
}

/**
 * Registers a contract-returning handler as a tool on an `McpServer` (`@modelcontextprotocol/server` 2.x).
 * The tool publishes `resultOutputSchema(tool.outputSchema)`; every call answers with a completed tool result
 * carrying a conforming contract result (see docs/mcp.md): a thrown error becomes `unexpected_error`, a result that
 * violates the contract becomes `invalid_result_contract`. Unknown tools and invalid arguments stay JSON-RPC
 * protocol errors.
 * @example
 * const server = new McpServer({ name: 'files', version: '1.0.0' }, { capabilities: { tools: {} } });
 * registerContractTool(server, {
 *   name: 'hello',
 *   description: 'Greets someone.',
 *   inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
 *   run: (args) => ok(`Hello, ${String(args.name)}.`),
 * });
 */
export function registerContractTool(server: McpServer, tool: ContractTool): RegisteredTool {
  const input = fromJsonSchema<Record<string, unknown>>(tool.inputSchema ?? NO_ARGUMENTS);
  const output = fromJsonSchema(resultOutputSchema(tool.outputSchema) as JsonSchemaType);
  const config = {
    description: tool.description,
    inputSchema: input,
    outputSchema: output,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
  const registered = server.registerTool(tool.name, config, async (args, mcp) => {
    // The deprecated accessor still answers per instance, and verdict serves one instance per connection.
    const revision = server.server.getNegotiatedProtocolVersion();
    const ctx: ContractToolContext = { signal: mcp.mcpReq.signal, revision, mcp };
    const result = await callContractTool(tool, output, args ?? {}, ctx);
    return toCallToolResult(result, { revision: revision ?? '' });
  });
  installArgumentGate(server).set(tool.name, input);
  return registered;
}
