import type { Hono } from 'hono';
import type { GatewayEnv, GatewayRuntime } from '../pipeline/gateway-env.js';
import type { Renderer, SurfaceName } from '../pipeline/renderer.js';

/**
 * What every client surface of the gateway shares (docs/gateway.md, "Use it from your existing client"). A
 * surface is a pair of pure translators around the gateway's own pipeline: its client's request becomes the
 * gateway's request, and the pipeline's envelope (or its stream events) becomes the client's answer, through the
 * surface's renderer (pipeline/renderer.ts).
 */

/**
 * A drop-in surface: a client API served under its own prefix, beside verdict's `/v1/*`. Everything under the
 * prefix answers in the client's shape — the gateway's own refusals too (a wrong key, a bound, an unknown path) —
 * and carries the trace id in the header that client reads.
 */
export interface DropInSurface {
  /** Its name in usage records and log lines. */
  readonly name: Exclude<SurfaceName, 'verdict'>;
  /** Its prefix, one of `SURFACE_PREFIXES` (pipeline/renderer.ts). */
  readonly prefix: `/${string}/`;
  /** How an answer under the prefix is written until a route picks its own renderer (failures, mostly). */
  readonly renderer: Renderer;
  /** Registers its routes (after the gateway's middleware, which already guard its prefix). */
  register(app: Hono<GatewayEnv>, runtime: GatewayRuntime): void;
}
