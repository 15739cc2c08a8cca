/**
 * Why a request to the gateway got no answer the page may read. A browser reports a gateway that is down and one
 * that refuses the page's origin (no CORS header for it) with the same `TypeError`, so the page asks once more
 * in `no-cors` mode: that request is not subject to CORS, and it resolves (with an unreadable answer) only when
 * something answers at that address (docs/console.md).
 */

/** Sends the `no-cors` probe; `fetch` in the page, a fake in tests. */
export type Probe = (url: string, init: RequestInit) => Promise<unknown>;

/** The gateway's origin for messages: the base URL without its trailing slashes, or the page's own origin. */
function originOf(baseUrl: string, pageOrigin: string): string {
  return baseUrl === '' ? pageOrigin : baseUrl.replace(/\/+$/, '');
}

function isSameOrigin(baseUrl: string, pageOrigin: string): boolean {
  if (baseUrl === '') return true;
  try {
    return new URL(baseUrl, pageOrigin).origin === pageOrigin;
  } catch {
    return false;
  }
}

/**
 * A sentence saying what went wrong and how to fix it: the gateway refuses this page's origin (open the console
 * it serves itself, or list the origin in its `cors.origins`), or nothing answers at its address (start it, or
 * correct the address).
 */
export async function explainUnreachable(
  baseUrl: string,
  pageOrigin: string,
  probe: Probe = (url, init) => fetch(url, init),
): Promise<string> {
  const gateway = originOf(baseUrl, pageOrigin);
  const down = `No gateway answers at ${gateway}: start it (npx verdict gateway, or --demo to try it without an account), or correct the Gateway URL under Connection.`;
  if (isSameOrigin(baseUrl, pageOrigin)) return down;
  try {
    await probe(`${gateway}/healthz`, { mode: 'no-cors', cache: 'no-store' });
  } catch {
    return down;
  }
  return (
    `The gateway at ${gateway} answers but refuses requests from this page's origin (${pageOrigin}). ` +
    `Open the console it serves itself at ${gateway}/, or add "${pageOrigin}" to cors.origins in its config file.`
  );
}
