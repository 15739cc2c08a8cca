import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../pipeline/gateway-env.js';

/**
 * The policy of every answer (docs/gateway.md, "Security"): the console's own scripts and styles only, no
 * framing; media from anywhere a provider's answer points (its image and video URLs); requests to any gateway the
 * console is pointed at. An API answer is JSON, which no policy changes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: http: https:",
  "media-src 'self' data: blob: http: https:",
  "connect-src 'self' http: https:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['content-security-policy', CONTENT_SECURITY_POLICY],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
];

/** Sets the security headers on every answer, the console's files and the API's envelopes alike. */
export function createSecurityHeaders(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    await next();
    let headers = c.res.headers;
    try {
      for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
    } catch {
      // An answer with immutable headers (one passed on from a fetch) is copied once; setting them through Hono
      // would rebuild every answer around its body, which costs more than the gateway's own work.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
    }
  };
}
