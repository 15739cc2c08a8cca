import type { Context } from 'hono';
import { readJson } from '../../../json/index.js';
import { assembleFailure } from '../../../unified/assemble-output.js';
import { normalizeResponse } from '../../../unified/normalize-response.js';
import { retryAfterMs } from '../../pipeline/call-with-fallbacks.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../../pipeline/gateway-env.js';
import type { CountTokensRequest } from './messages-request-schema.js';

/**
 * `POST /anthropic/v1/messages/count_tokens` (docs/gateway.md, "Anthropic clients"). Only Anthropic counts
 * tokens exactly for its own models, so the request is forwarded, with the provider's key, when the model's
 * first target is an Anthropic provider; any other target is a `VALIDATION_ERROR` saying so: the gateway never
 * answers a count it made up.
 */

/** The codes whose answer tells the client how long to wait (docs/gateway.md, "Errors"). */
const WAITS: ReadonlySet<string> = new Set(['RATE_LIMITED', 'PROVIDER_UNAVAILABLE']);

/** Largest count Anthropic's answer may carry that the gateway passes on. */
const MAX_COUNT = 100_000_000;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_COUNT;
}

/** Ask Anthropic for the count of a Messages request and answer `{input_tokens}` or the failure. */
export async function serveCountTokens(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  body: CountTokensRequest,
): Promise<Response> {
  const traceId = c.get('traceId');
  const resolved = runtime.resolve(body.model, 'text', traceId);
  if (!resolved.ok) return respond(c, resolved.failure);
  const target = resolved.targets[0];
  const count = target?.provider.countTokens;
  if (target === undefined || count === undefined) {
    return respond(
      c,
      systemFailure(
        'VALIDATION_ERROR',
        `count_tokens is answered for Anthropic targets only; "${target?.label ?? body.model}" is a ${target?.provider.type ?? 'other'} provider, whose tokens the gateway cannot count exactly.`,
        traceId,
        { target: target?.label, provider: target?.provider.id },
      ),
    );
  }
  const facts = c.get('facts');
  facts.target = target.label;
  const signal = AbortSignal.any([
    c.req.raw.signal,
    AbortSignal.timeout(runtime.reliability('text').timeoutMs),
  ]);
  let answer: Response;
  let text: string;
  try {
    answer = await count({ ...body, model: target.modelId }, signal);
    text = await answer.text();
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return respond(
      c,
      assembleFailure(
        target.provider.id,
        timedOut ? 'PROVIDER_TIMEOUT' : 'PROVIDER_UNAVAILABLE',
        timedOut ? 'The token count did not come within the deadline.' : 'The provider could not be reached.',
        {},
        { trace_id: traceId },
      ),
    );
  }
  if (answer.status >= 300) {
    const failure = normalizeResponse({
      format: 'anthropic.messages',
      status: answer.status,
      headers: answer.headers,
      body: text,
      traceId,
      provider: target.provider.id,
    });
    // The provider's retry-after is passed on, as the text route passes it on when it gives up.
    const wait = retryAfterMs({ responseHeaders: Object.fromEntries(answer.headers) });
    return respond(
      c,
      !failure.success && wait !== undefined && WAITS.has(failure.error.code)
        ? {
            ...failure,
            error: {
              ...failure.error,
              details: { ...failure.error.details, retry_after_s: Math.ceil(wait / 1000) },
            },
          }
        : failure,
    );
  }
  const read = readJson(text, { maxDepth: 8 });
  const tokens = read.ok ? (read.value as { input_tokens?: unknown } | null)?.input_tokens : undefined;
  if (!isCount(tokens)) {
    return respond(
      c,
      assembleFailure(
        target.provider.id,
        'INVALID_PROVIDER_RESPONSE',
        'The token count answer holds no input_tokens count.',
        {},
        { trace_id: traceId },
      ),
    );
  }
  facts.code = 'ok';
  facts.provider = target.provider.id;
  return c.json({ input_tokens: tokens }, 200, { 'request-id': traceId, 'x-trace-id': traceId });
}
