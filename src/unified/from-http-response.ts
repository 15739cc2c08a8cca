import { assembleFailure } from './assemble-output.js';
import { checkHttpCoherence } from './check-http-coherence.js';
import { readBody } from './read-body.js';
import { traceIdFrom } from './trace-id-from.js';
import type { UnifiedFailure, UnifiedOutput } from './types.js';
import { validateUnifiedOutput } from './validate-unified-output.js';

/**
 * Read an envelope from an HTTP response on the client side: parse, validate and check that the status is
 * coherent; a body that is not a valid, coherent envelope becomes an `INVALID_PROVIDER_RESPONSE` failure.
 * Never throws, never rejects.
 * @example
 * const output = await fromHttpResponse(await fetch('/api/generate', { method: 'POST', body }));
 * if (output.success) render(output.content, output.images); else showError(output.error.message);
 */
export async function fromHttpResponse(response: Response): Promise<UnifiedOutput> {
  const traceId = traceIdFrom(
    response.headers.has('x-trace-id')
      ? { 'x-trace-id': response.headers.get('x-trace-id') ?? '' }
      : undefined,
  );
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    return invalid(
      traceId,
      response.status,
      `The response body could not be read: ${(error as Error).message}`,
      {},
    );
  }
  const read = readBody(bytes);
  if (!read.ok) return invalid(traceId, response.status, read.message, {});
  // An envelope that names a member twice is ambiguous: readers disagree on which value counts.
  if (read.duplicates)
    return invalid(traceId, response.status, 'The response body names a member twice.', {});
  const validation = validateUnifiedOutput(read.value);
  if (!validation.valid) {
    return invalid(traceId, response.status, 'The response body is not a valid unified output envelope.', {
      violations: validation.violations,
    });
  }
  const coherence = checkHttpCoherence(response.status, validation.value);
  if (!coherence.ok) {
    return invalid(validation.value.metadata.trace_id, response.status, coherence.message, {
      expected_status: coherence.expected ?? null,
    });
  }
  return validation.value;
}

function invalid(
  traceId: string,
  status: number,
  message: string,
  details: Record<string, unknown>,
): UnifiedFailure {
  return assembleFailure(
    'system',
    'INVALID_PROVIDER_RESPONSE',
    message,
    { http_status: status, ...details },
    { trace_id: traceId },
  );
}
