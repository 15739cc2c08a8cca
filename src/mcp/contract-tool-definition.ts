import type { JsonSchema } from '../contract/schema.js';
import type { ResultContract } from '../contract/types.js';

/**
 * A tool whose handler returns a contract result, whatever MCP SDK serves it: the SDK adapters
 * (`verdict/mcp/server` for 2.x, `verdict/mcp/sdk-v1` for 1.x) fill in their own handler context and annotations.
 */
export interface ContractToolDefinition<Context, Annotations> {
  /** The tool name clients call. */
  name: string;
  /** A display name. */
  title?: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON Schema of the arguments (an object schema); default: no arguments. */
  inputSchema?: JsonSchema;
  /** JSON Schema of the domain fields a success carries; published through `resultOutputSchema`. */
  outputSchema?: JsonSchema;
  /** MCP tool annotations (`readOnlyHint`, …). */
  annotations?: Annotations;
  /** Does the work; a thrown error becomes an `unexpected_error` failure result, never a protocol error. */
  run(args: Record<string, unknown>, ctx: Context): ResultContract | Promise<ResultContract>;
}
