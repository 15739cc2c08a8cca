import { responseOfValid } from '../../unified/to-http-response.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { EventStream, TextStreamWrite } from '../basics/create-event-stream.js';

/**
 * How the pipeline's answer reaches a client (docs/gateway.md, "Use it from your existing client"). Every route
 * builds the envelope first; the request's renderer then writes it — verdict's envelope as it is, or a drop-in
 * surface's answer made from it — so the two cannot disagree. The surfaces (surfaces/) provide their renderers.
 */

/** The surfaces that answer requests, as usage records and log lines name them. */
export const SURFACE_NAMES = ['verdict', 'openai', 'anthropic'] as const;

/** One surface's name: one of {@link SURFACE_NAMES}. */
export type SurfaceName = (typeof SURFACE_NAMES)[number];

/** The path prefix of each drop-in surface: its client's base URL is the gateway's plus this. */
export const SURFACE_PREFIXES = { openai: '/openai/', anthropic: '/anthropic/' } as const satisfies Readonly<
  Partial<Record<SurfaceName, `/${string}/`>>
>;

/** True for a path under a drop-in surface's prefix (guarded by the gateway's keys like `/v1/*`). */
export function isSurfacePath(path: string): boolean {
  return Object.values(SURFACE_PREFIXES).some((prefix) => path.startsWith(prefix));
}

/**
 * How a route answers: the surface it belongs to, how a built envelope becomes the HTTP answer (a success in the
 * client's own object, a failure in its own error body with the status of verdict's code), and, for a streaming
 * route, how the stream's events are written.
 */
export interface Renderer {
  /** The surface, as usage records name it. */
  readonly surface: SurfaceName;
  /** The header that carries the trace id for this surface's clients, besides `x-trace-id`. */
  readonly requestIdHeader?: string;
  /** The answer of a built, validated envelope; `headers` are the gateway's own (`retry-after`, rate limits…). */
  render(envelope: UnifiedOutput, headers: Record<string, string>): Response;
  /** The writer of a stream's events on `events`; the answer's headers are the event stream's own. */
  openStream?(events: EventStream, traceId: string): TextStreamWrite;
}

/** Verdict's own stream: its events as they are, each a named server-sent event (docs/gateway.md, "Streaming"). */
export function writeEnvelopeEvents(events: EventStream): TextStreamWrite {
  return (event, data) => events.write(event, data);
}

/** Verdict's own answers: the envelope as it is, and its stream as `delta`, tool-call and `envelope` events. */
export const ENVELOPE_RENDERER: Renderer = {
  surface: 'verdict',
  render: (envelope, headers) => responseOfValid(envelope, { headers }),
  openStream: writeEnvelopeEvents,
};

/** The headers of a surface's answer: the gateway's, the trace id in the surface's header too. */
export function surfaceHeaders(
  renderer: Renderer,
  traceId: string,
  headers: Record<string, string>,
): Record<string, string> {
  const named = renderer.requestIdHeader === undefined ? {} : { [renderer.requestIdHeader]: traceId };
  return { ...headers, ...named, 'x-trace-id': traceId };
}
