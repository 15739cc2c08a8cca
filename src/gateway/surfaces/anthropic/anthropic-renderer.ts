import type { UnifiedOutput } from '../../../unified/types.js';
import { type Renderer, surfaceHeaders } from '../../pipeline/renderer.js';
import { toErrorBody, unrenderableError, VERDICT_ERROR_CODE_HEADER } from './to-error-body.js';
import { toMessage } from './to-message.js';
import { createMessageEventWriter } from './write-message-events.js';

/** The header the Anthropic SDKs read a request id from (`_request_id`, `error.requestID`). */
export const ANTHROPIC_REQUEST_ID_HEADER = 'request-id';

function json(body: unknown, status: number, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

/**
 * How answers under `/anthropic/` are written (docs/gateway.md, "Anthropic clients"): a failure as Anthropic's
 * error body with the status of verdict's code and `x-verdict-error-code`; a text answer as a Message for
 * `model` (the requested one, used when the envelope does not name the model that answered), its stream as
 * Anthropic's events. Without a model (the gateway's own refusals before a request is read), only failures are
 * expected; a success is then served as the envelope it is.
 */
export function createAnthropicRenderer(model?: string): Renderer {
  const renderer: Renderer = {
    surface: 'anthropic',
    requestIdHeader: ANTHROPIC_REQUEST_ID_HEADER,
    render(envelope: UnifiedOutput, headers: Record<string, string>): Response {
      const traceId = envelope.metadata.trace_id;
      const base = surfaceHeaders(renderer, traceId, headers);
      if (!envelope.success) {
        const { status, body } = toErrorBody(envelope);
        return json(body, status, { ...base, [VERDICT_ERROR_CODE_HEADER]: envelope.error.code });
      }
      if (model === undefined) return json(envelope, 200, base);
      const message = toMessage(envelope, model);
      if (message.ok) return json(message.message, 200, base);
      const refused = unrenderableError(message.problem, traceId);
      return json(refused.body, refused.status, {
        ...base,
        [VERDICT_ERROR_CODE_HEADER]: refused.body.error.verdict_code,
      });
    },
    openStream: (events, traceId) =>
      createMessageEventWriter((event, data) => events.write(event, data), { traceId, model: model ?? '' }),
  };
  return renderer;
}
