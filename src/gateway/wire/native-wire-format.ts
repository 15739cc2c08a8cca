import { normalizeResponse, type UnifiedFormat } from '../../unified/normalize-response.js';
import type { JsonObject } from '../basics/json-value.js';
import type { TextRequest } from '../request/request-schemas.js';
import type { NativeRequestBuild } from './native-request.js';
import { readWireStream } from './read-wire-stream.js';
import type { WireEventDeltas, WireFormat, WireRequestBuild } from './wire-format.js';

/**
 * A {@link WireFormat} made of a request builder and a stream's deltas: plain answers are read by the normalizer
 * of `format`, streams by the shared incremental reader, so both meet `verdict normalize` by construction.
 */
export function createWireFormat(
  format: UnifiedFormat,
  build: (request: TextRequest, provider: string, modelId: string) => NativeRequestBuild,
  deltas: () => WireEventDeltas,
): WireFormat {
  return {
    format,
    buildRequest(request, target): WireRequestBuild {
      const built = build(request, target.provider, target.modelId);
      if (built.ok === true)
        return { ok: true, request: { ...built.request, body: built.request.body as JsonObject } };
      // The request model refuses what a target cannot take before any format builds; a problem found here
      // as well leaves the request to the AI SDK's path, which reports it the same way.
      if (built.ok === false) return { ok: false, reason: built.problems[0]?.message ?? 'refused' };
      return { ok: false, reason: built.reason };
    },
    readAnswer(answer, context) {
      return normalizeResponse({
        format,
        provider: context.provider,
        traceId: context.traceId,
        status: answer.status,
        headers: answer.headers,
        body: answer.body,
        latencyMs: context.latencyMs,
      });
    },
    openStream(context) {
      return readWireStream(format, deltas(), context);
    },
  };
}
