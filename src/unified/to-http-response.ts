import { assembleFailure } from './assemble-output.js';
import { STATUS_OF_UNLISTED_CODE, statusForCode } from './error-taxonomy.js';
import { traceIdOr } from './trace-id-from.js';
import type { UnifiedFailure, UnifiedOutput } from './types.js';
import { validateUnifiedOutput } from './validate-unified-output.js';

/**
 * What `new Headers(…)` takes. Spelled from the `Headers` constructor rather than as the DOM's `HeadersInit`, so
 * the declaration holds in Node projects without the DOM lib (`@types/node` declares `Headers`, not `HeadersInit`).
 */
export type HeadersInitLike = ConstructorParameters<typeof Headers>[0];

/**
 * Serve an envelope as a Web `Response`: status 200 for a success or the taxonomy's status for a failure,
 * `content-type: application/json` and the trace id in `x-trace-id`. An envelope that does not validate is
 * replaced by an `INTERNAL_ERROR` failure, so nothing invalid leaves; never throws.
 * @example
 * export default { fetch: async (request) => toHttpResponse(await answer(request)) };
 */
export function toHttpResponse(envelope: UnifiedOutput, init?: { headers?: HeadersInitLike }): Response {
  const checked = validateUnifiedOutput(envelope);
  return responseOfValid(checked.valid ? checked.value : internalError(envelope, checked.violations), init);
}

/**
 * Serve an envelope that was validated already (the gateway's builder validates each answer once): the status
 * from its code, `content-type` and `x-trace-id`. Internal to verdict; {@link toHttpResponse} is the public way.
 */
export function responseOfValid(served: UnifiedOutput, init?: { headers?: HeadersInitLike }): Response {
  const status = served.success ? 200 : (statusForCode(served.error.code) ?? STATUS_OF_UNLISTED_CODE);
  const headers = new Headers(init?.headers);
  headers.set('content-type', 'application/json');
  headers.set('x-trace-id', served.metadata.trace_id);
  return new Response(JSON.stringify(served), { status, headers });
}

/** The failure served in place of an envelope that does not validate. */
export function internalError(envelope: unknown, violations: unknown[]): UnifiedFailure {
  const metadata = (envelope as { metadata?: { trace_id?: unknown } } | null)?.metadata;
  const traceId = traceIdOr(metadata?.trace_id);
  return assembleFailure(
    'system',
    'INTERNAL_ERROR',
    'The server produced an envelope that is not a valid unified output.',
    { violations },
    { trace_id: traceId },
  );
}
