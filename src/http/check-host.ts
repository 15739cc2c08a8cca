// DNS rebinding and cross-site protection shared by `verdict gateway` (without gateway keys) and `verdict mcp
// serve --http`: a browser page on another site, or on a host name rebound to this machine, sends its own site in
// `Origin` and its own name in `Host`; both must name a host this server answers (docs/gateway.md, "Security";
// docs/mcp-http.md). Pure: runs wherever a web `Request` does.

/** The names of this machine every server accepts in `Host` and `Origin`. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Addresses that bind every interface: they name no host a client would send. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;

/** A host without its IPv6 brackets, in lower case. */
function bareOf(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/** True for an address only this machine reaches: `localhost`, 127.0.0.0/8 and `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = bareOf(host);
  return bare === 'localhost' || bare === '::1' || (IPV4.test(bare) && bare.startsWith('127.'));
}

/** A host as the checks compare it: lower case, an IPv6 address in brackets (as `URL.hostname` writes it). */
function hostnameOf(host: string): string {
  const bare = bareOf(host);
  return bare.includes(':') ? `[${bare}]` : bare;
}

/** The host names a server bound to `host` answers in `Host` and `Origin` headers, `extra` included. */
export function allowedHostnames(host: string, extra: readonly string[] = []): string[] {
  const names = new Set(LOOPBACK_HOSTNAMES);
  if (!WILDCARD_HOSTS.has(host)) names.add(hostnameOf(host));
  for (const name of extra) names.add(hostnameOf(name));
  return [...names];
}

/** A header's value as a refusal quotes it: at most 100 characters, so an answer stays small. */
function quoted(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}

/** The host name of an `http://` URL made of `authority`, or undefined when it is no URL authority. */
function hostnameIn(url: string): string | undefined {
  try {
    const { hostname } = new URL(url);
    return hostname === '' ? undefined : hostname;
  } catch {
    return undefined;
  }
}

/**
 * Why a request with these `Host` and `Origin` headers is refused, or undefined when both name allowed hosts
 * (ports are not compared). A missing `Host` is refused; a missing `Origin` passes (clients other than browsers
 * send none), but any other value that is not an allowed origin is refused, the opaque `null` included.
 */
export function checkHostAndOrigin(
  host: string | null | undefined,
  origin: string | null | undefined,
  hostnames: readonly string[],
): string | undefined {
  if (host === null || host === undefined || host === '') return 'Missing Host header';
  const hostname = /[/?#@\\\s]/.test(host) ? undefined : hostnameIn(`http://${host}`);
  if (hostname === undefined) return `Invalid Host header: ${quoted(host)}`;
  if (!hostnames.includes(hostname)) return `Invalid Host: ${quoted(hostname)}`;
  if (origin === null || origin === undefined || origin === '') return undefined;
  const originHost = /^https?:\/\//i.test(origin) ? hostnameIn(origin) : undefined;
  if (originHost === undefined) return `Invalid Origin header: ${quoted(origin)}`;
  if (!hostnames.includes(originHost)) return `Invalid Origin: ${quoted(originHost)}`;
  return undefined;
}
