import type { ResultContract } from '../contract/types.js';

/** The first MCP revision whose completed results carry `resultType: "complete"` (SPEC §3). */
const RESULT_TYPE_REVISION = '2026-07-28';

/** Options of {@link toCallToolResult}. */
export interface ToCallToolResultOptions {
  /** The MCP revision the result is sent under (`2025-06-18`, `2025-11-25`, `2026-07-28`). */
  revision: string;
}

/** The text block of a tool result. */
export interface McpTextContent {
  /** Always `"text"`. */
  type: 'text';
  /** The JSON serialization of the contract result. */
  text: string;
}

/** A completed MCP `CallToolResult` that carries a contract result (SPEC §3). */
export interface ContractCallToolResult {
  /** One text block with the serialized result, for clients that read only `content`. */
  content: McpTextContent[];
  /**
   * The complete contract result. Typed with an index signature as well, so the result is a `CallToolResult` of
   * both MCP SDKs (1.x and 2.x type `structuredContent` as `{ [key: string]: unknown }`).
   */
  structuredContent: ResultContract & { [key: string]: unknown };
  /** Present and `true` on a failure; absent on a success (absent means false). */
  isError?: true;
  /** `"complete"` from MCP 2026-07-28 on; absent for the 2025 revisions. */
  resultType?: 'complete';
  /** Other members an SDK may add (`_meta`). */
  [key: string]: unknown;
}

/**
 * Carries a contract result inside an MCP tool result (SPEC §3): `structuredContent` is the result, a failure
 * sends `isError: true`, one text block holds the same object serialized, and 2026-07-28 adds
 * `resultType: "complete"`. The result is passed as given: guard it with `ensureResult` first.
 * @example
 * toCallToolResult(fail('No such file.', { error_code: 'path_not_found' }), { revision: '2026-07-28' })
 * // { content: [{ type: 'text', text: '{"success":false,…}' }], structuredContent: {…}, isError: true, resultType: 'complete' }
 */
export function toCallToolResult(
  result: ResultContract,
  options: ToCallToolResultOptions,
): ContractCallToolResult {
  const callToolResult: ContractCallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    // A contract result is a JSON object whose members are all strings; only its declared type lacks the index.
    structuredContent: result as ResultContract & { [key: string]: unknown },
  };
  if (!result.success) callToolResult.isError = true;
  // Revisions are ISO dates, so string order is release order.
  if (options.revision >= RESULT_TYPE_REVISION) callToolResult.resultType = 'complete';
  return callToolResult;
}
