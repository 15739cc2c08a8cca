import { buildGenerateContentRequest } from './gemini-request.js';
import { createWireFormat } from './native-wire-format.js';
import type { WireDelta, WireEventDeltas } from './wire-format.js';

/**
 * The deltas of a Gemini stream (`streamGenerateContent?alt=sse`): the first candidate's text parts, thought
 * parts as reasoning, and each function call whole, as Gemini sends it in one part. A call without an id is
 * given one by its place in the answer (`call_0`, `call_1`…), so the client can tell calls apart.
 */
function geminiDeltas(): WireEventDeltas {
  let calls = 0;
  return (event) => {
    const out: WireDelta[] = [];
    const candidates = (event as { candidates?: unknown } | null)?.candidates;
    const first = Array.isArray(candidates)
      ? (candidates[0] as { content?: { parts?: unknown } } | null)
      : null;
    const parts = first?.content?.parts;
    if (!Array.isArray(parts)) return out;
    for (const part of parts as Record<string, unknown>[]) {
      if (part === null || typeof part !== 'object') continue;
      if (typeof part.text === 'string' && part.text !== '')
        out.push({ type: part.thought === true ? 'reasoning' : 'text', text: part.text });
      const fn = part.functionCall as Record<string, unknown> | undefined;
      // Vertex AI's streamed arguments (a call continued over several parts) are left to the envelope.
      if (fn === null || typeof fn !== 'object' || typeof fn.name !== 'string' || fn.willContinue === true)
        continue;
      if (fn.partialArgs !== undefined) continue;
      const id = typeof fn.id === 'string' ? fn.id : `call_${calls}`;
      calls++;
      out.push({ type: 'tool_call_start', id, name: fn.name });
      out.push({ type: 'tool_call_delta', id, arguments: JSON.stringify(fn.args ?? {}) });
    }
    return out;
  };
}

/** Gemini's `generateContent` and `streamGenerateContent`, read by the `google.generate-content` normalizer. */
export const geminiWire = createWireFormat(
  'google.generate-content',
  buildGenerateContentRequest,
  geminiDeltas,
);
