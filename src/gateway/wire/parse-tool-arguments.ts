import { readJson } from '../../json/index.js';
import type { UnifiedOutput } from '../../unified/types.js';

/**
 * The gateway's answers carry each tool call's `arguments` as the parsed JSON value (docs/gateway.md, "Tool
 * calls"), where the normalizers keep the JSON text the provider sent (docs/unified.md, "Tool calls"). Arguments
 * that are not JSON stay the raw text, marked `arguments_not_json: true`; JSON with a `__proto__` key is JSON,
 * read by verdict's strict reader with the key as an own member. Other envelopes come back as they are.
 */
export function withParsedToolArguments(envelope: UnifiedOutput): UnifiedOutput {
  const calls = envelope.success ? envelope.metadata.tool_calls : undefined;
  if (!Array.isArray(calls) || !calls.some((call) => typeof call?.arguments === 'string')) return envelope;
  const parsed = calls.map((call: Record<string, unknown>) => {
    if (typeof call.arguments !== 'string') return call;
    const read = readJson(call.arguments);
    return read.ok ? { ...call, arguments: read.value } : { ...call, arguments_not_json: true };
  });
  return { ...envelope, metadata: { ...envelope.metadata, tool_calls: parsed } };
}
