import type { MiddlewareHandler } from 'hono';
import { allowedHostnames, checkHostAndOrigin, isLoopbackHost } from '../../http/check-host.js';
import { ROUTE_KEYS, routeEntry } from '../basics/route-table.js';
import { type GatewayEnv, respond, systemFailure } from '../pipeline/gateway-env.js';

/** Where a gateway without keys listens, and whom it answers besides this machine. */
export interface KeylessGuardOptions {
  /** The address it is bound to; undefined is taken as a loopback bind (the default of `verdict gateway`). */
  host?: string | undefined;
  /** Origins CORS lets in (`cors.origins`): pages there may call it. */
  corsOrigins?: readonly string[] | undefined;
}

/** The paths that document a `multipart/form-data` body besides JSON. */
const MULTIPART_PATHS = new Set<string>(
  ROUTE_KEYS.flatMap((key) => {
    const entry = routeEntry(key);
    return entry.multipart === undefined ? [] : [entry.path];
  }),
);

/** The media type of a `content-type` header, in lower case and without its parameters. */
function mediaTypeOf(contentType: string | undefined): string {
  return ((contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '').slice(0, 100);
}

/**
 * Guards a gateway that has no keys, where anyone who reaches it spends its provider keys (docs/gateway.md,
 * "Security"). On a loopback bind, `Host` and `Origin` must name this machine (or a CORS origin), so that a page
 * on another site, or on a host name rebound to 127.0.0.1, is refused (`PERMISSION_DENIED`, 403). On any bind, a
 * browser's request with a body (it carries `Origin`) must be `application/json`, or `multipart/form-data` where
 * a route documents it: the types a cross-site form or a no-cors fetch can send without a preflight
 * (`text/plain`, `application/x-www-form-urlencoded`) are refused (`VALIDATION_ERROR`, 400). Clients that are
 * not browsers (curl, SDKs) send no `Origin` and are not the confused deputies these checks stop.
 */
export function createKeylessGuard(options: KeylessGuardOptions = {}): MiddlewareHandler<GatewayEnv> {
  const host = options.host;
  const hostnames = host === undefined || isLoopbackHost(host) ? allowedHostnames(host ?? '') : undefined;
  const corsOrigins = new Set(options.corsOrigins ?? []);
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (hostnames !== undefined) {
      const refused = checkHostAndOrigin(
        c.req.header('host') ?? new URL(c.req.url).host,
        origin !== undefined && corsOrigins.has(origin) ? undefined : origin,
        hostnames,
      );
      if (refused !== undefined) {
        return respond(
          c,
          systemFailure(
            'PERMISSION_DENIED',
            `${refused}. A gateway without keys on a loopback address answers this machine only; set gateway keys, list the page's origin in cors.origins, or bind another address.`,
            c.get('traceId'),
            { reason: 'foreign_host_or_origin' },
          ),
        );
      }
    }
    const method = c.req.method;
    if (origin !== undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      const type = mediaTypeOf(c.req.header('content-type'));
      if (
        type !== 'application/json' &&
        !(type === 'multipart/form-data' && MULTIPART_PATHS.has(c.req.path))
      ) {
        return respond(
          c,
          systemFailure(
            'VALIDATION_ERROR',
            `A browser's request to a gateway without keys must be sent as application/json${MULTIPART_PATHS.has(c.req.path) ? ' or multipart/form-data' : ''}, not ${type === '' ? 'without a content-type' : type}.`,
            c.get('traceId'),
            { reason: 'content_type', content_type: type },
          ),
        );
      }
    }
    return next();
  };
}
