import type { Hono } from 'hono';
import { responseOfValid } from '../../unified/to-http-response.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { EventStream } from '../basics/create-event-stream.js';
import type { GatewayEnv, GatewayRuntime } from '../pipeline/gateway-env.js';

/**
 * What every client surface of the gateway shares (docs/gateway.md, "Use it from your existing client"). A
 * surface is a pair of pure translators around the gateway's own pipeline: its client's request becomes the
 * gateway's request, and the pipeline's envelope (or its stream events) becomes the client's answer. The
 * envelope is built first and the answer rendered from it, so the two cannot disagree.
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
 * The events of a text stream as the pipeline writes them: `delta` (`{text}`), `tool_call_start` (`{id, name}`),
 * `tool_call_delta` (`{id, arguments}`), then one `envelope` (the built envelope, success or failure) last.
 */
export type TextStreamEvent = 'delta' | 'tool_call_start' | 'tool_call_delta' | 'envelope';

/** Writes the pipeline's stream events in a client's dialect; resolves when the client has taken them. */
export type TextStreamWrite = (event: TextStreamEvent, data: unknown) => Promise<void>;

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

/**
 * A drop-in surface: a client API served under its own prefix, beside verdict's `/v1/*`. Everything under the
 * prefix answers in the client's shape — the gateway's own refusals too (a wrong key, a bound, an unknown path) —
 * and carries the trace id in the header that client reads.
 */
export interface DropInSurface {
  /** Its name in usage records and log lines. */
  readonly name: Exclude<SurfaceName, 'verdict'>;
  /** Its prefix, one of {@link SURFACE_PREFIXES}. */
  readonly prefix: `/${string}/`;
  /** How an answer under the prefix is written until a route picks its own renderer (failures, mostly). */
  readonly renderer: Renderer;
  /** Registers its routes (after the gateway's middleware, which already guard its prefix). */
  register(app: Hono<GatewayEnv>, runtime: GatewayRuntime): void;
}
