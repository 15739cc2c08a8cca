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
import type { OutputStream } from '../../producer/types.js';
import type { ContractToolDefinition } from '../contract-tool-definition.js';
import { resultOutputSchema } from '../result-output-schema.js';
import { type ContractCallToolResult, toCallToolResult } from '../to-call-tool-result.js';

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
export type ContractTool = ContractToolDefinition<ContractToolContext, ToolAnnotations>;

/** Options of {@link registerContractTool}. */
export interface ContractToolOptions {
  /**
   * Largest serialized contract result, in UTF-8 bytes, a call may answer with; a larger one becomes a
   * `result_too_large` failure. Default {@link DEFAULT_MAX_RESULT_BYTES}.
   */
  maxResultBytes?: number;
  /** Receives a line when a result is replaced for being too large; default: `process.stderr`. */
  log?: OutputStream;
}

/** The default bound on a serialized contract result sent over MCP: 4 MiB (see docs/mcp-http.md). */
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;

/** What a tool needs at call time, built once per tool object: its schemas with their compiled validators. */
interface PreparedTool {
  tool: ContractTool;
  input: StandardSchemaWithJSON<Record<string, unknown>>;
  output: StandardSchemaWithJSON;
}

/** One tool served on one server. */
interface ServedTool {
  prepared: PreparedTool;
  registered: RegisteredTool;
  maxResultBytes: number;
  log: OutputStream;
}

const NO_ARGUMENTS: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/**
 * Tools prepared so far. The SDK's JSON Schema validator compiles and keeps every schema object it is given,
 * so a server built per request must reuse the same schema objects or it compiles (and keeps) new ones on
 * every request.
 */
const preparedTools = new WeakMap<ContractTool, PreparedTool>();

/** The contract tools each server answers `tools/call` for. */
const servedTools = new WeakMap<McpServer, Map<string, ServedTool>>();

function prepareContractTool(tool: ContractTool): PreparedTool {
  const known = preparedTools.get(tool);
  if (known !== undefined) return known;
  const prepared: PreparedTool = {
    tool,
    input: fromJsonSchema<Record<string, unknown>>(tool.inputSchema ?? NO_ARGUMENTS),
    output: fromJsonSchema(resultOutputSchema(tool.outputSchema) as JsonSchemaType),
  };
  preparedTools.set(tool, prepared);
  return prepared;
}

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
 * Installs verdict's `tools/call` handler on a server, once. McpServer 2.x turns invalid arguments into an
 * `isError` result without `structuredContent`; verdict answers them with JSON-RPC `-32602` instead, so no
 * tool result ever exists that does not carry a contract result (docs/mcp-http.md, "Errors").
 */
function installToolsCall(server: McpServer): Map<string, ServedTool> {
  const existing = servedTools.get(server);
  if (existing !== undefined) return existing;
  const served = new Map<string, ServedTool>();
  servedTools.set(server, served);
  server.server.setRequestHandler('tools/call', async (request, mcp) => {
    const { name, arguments: args } = request.params;
    const entry = served.get(name);
    // The same answers as McpServer's own handler for tools it does not serve.
    if (entry === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool ${name} not found (this server answers tools/call for contract tools only).`,
      );
    }
    if (!entry.registered.enabled) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} disabled`);
    }
    const checked = await entry.prepared.input['~standard'].validate(args ?? {});
    if (checked.issues !== undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid arguments for tool ${name}: ${describeIssues(checked.issues)}`,
      );
    }
    return callContractTool(server, entry, checked.value, mcp);
  });
  return served;
}

/** Runs one call and shapes its answer: the guarded result, bounded in size, as a CallToolResult. */
async function callContractTool(
  server: McpServer,
  entry: ServedTool,
  args: Record<string, unknown>,
  mcp: ServerContext,
): Promise<ContractCallToolResult> {
  const { tool, output } = entry.prepared;
  // The deprecated accessor still answers per instance, and verdict serves one instance per connection.
  const revision = server.server.getNegotiatedProtocolVersion();
  const ctx: ContractToolContext = { signal: mcp.mcpReq.signal, revision, mcp };
  const result = await runAndCheck(tool, output, args, ctx);
  const options = { revision: revision ?? '' };
  let answer: ContractCallToolResult | undefined;
  let size: number | undefined;
  try {
    answer = toCallToolResult(result, options);
    size = Buffer.byteLength(answer.content[0]?.text ?? '');
  } catch (thrown) {
    // JSON.stringify throws a RangeError when the text would exceed the longest string V8 can hold.
    if (!(thrown instanceof RangeError)) throw thrown;
  }
  if (answer !== undefined && size !== undefined && size <= entry.maxResultBytes) return answer;
  const shown = size === undefined ? 'more than fits in one string' : `${size} bytes`;
  entry.log.write(
    `verdict mcp: ${tool.name} returned ${shown}, more than the ${entry.maxResultBytes}-byte result limit; answered result_too_large\n`,
  );
  return toCallToolResult(
    ensureResult(
      fail(`${tool.name} returned a result too large to send over MCP (${shown}).`, {
        error: `The serialized result is ${shown}; the limit is ${entry.maxResultBytes} bytes.`,
        error_code: 'result_too_large',
        details: { size_bytes: size ?? null, limit_bytes: entry.maxResultBytes },
      }),
    ) as ResultContract,
    options,
  );
}

/** The guarded result of one call, and a success checked against the tool's published outputSchema. */
async function runAndCheck(
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
 * carrying a conforming contract result (docs/mcp-http.md): a thrown error becomes `unexpected_error`, a
 * result that violates the contract becomes `invalid_result_contract`, one whose serialization exceeds
 * `maxResultBytes` becomes `result_too_large`. Unknown tools and invalid arguments stay JSON-RPC `-32602`
 * protocol errors.
 *
 * verdict answers `tools/call` on the server itself (through the SDK's `setRequestHandler`), so a server that
 * carries contract tools serves contract tools only: register every tool on it with this function.
 * Schemas and validators are built once per `tool` object, so reuse the same objects when a server is built
 * per request.
 * @example
 * const server = new McpServer({ name: 'files', version: '1.0.0' }, { capabilities: { tools: {} } });
 * registerContractTool(server, {
 *   name: 'hello',
 *   description: 'Greets someone.',
 *   inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
 *   run: (args) => ok(`Hello, ${String(args.name)}.`),
 * });
 */
export function registerContractTool(
  server: McpServer,
  tool: ContractTool,
  options: ContractToolOptions = {},
): RegisteredTool {
  const prepared = prepareContractTool(tool);
  const config = {
    description: tool.description,
    inputSchema: prepared.input,
    outputSchema: prepared.output,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
  // McpServer lists the tool (and keeps enable/disable/remove); calls reach verdict's handler, installed
  // after McpServer's own so that it replaces it.
  const registered = server.registerTool(tool.name, config, () => {
    throw new Error(`${tool.name} is called through verdict's tools/call handler.`);
  });
  const served = installToolsCall(server);
  const entry: ServedTool = {
    prepared,
    registered,
    maxResultBytes: options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    log: options.log ?? process.stderr,
  };
  served.set(tool.name, entry);
  // `remove()` and renames go through `update`; verdict's handler follows them. The schemas and the handler
  // are the contract tool's own, so updating those is refused rather than silently ignored.
  let name = tool.name;
  const sdkUpdate = registered.update;
  registered.update = (updates) => {
    for (const key of ['paramsSchema', 'outputSchema', 'callback'] as const) {
      if (updates[key] !== undefined) {
        throw new Error(`${key} of contract tool ${name} cannot be updated; register a new ContractTool.`);
      }
    }
    sdkUpdate(updates);
    if (updates.name === undefined || updates.name === name) return;
    served.delete(name);
    if (updates.name !== null) {
      name = updates.name;
      served.set(name, entry);
    }
  };
  return registered;
}
