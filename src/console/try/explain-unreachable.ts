/**
 * What the console says when a call got no answer it may read. verdict/client tells a gateway that refuses the
 * page's origin (CORS) from one that is down (docs/client.md, "Failures without an answer"); this turns its
 * failure into the fix for each, in the console's words (docs/console.md).
 */

import type { UnifiedFailure } from '../../client/index.js';

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A sentence saying what went wrong and how to fix it: the call was cancelled; the gateway refuses this page's
 * origin (open the console it serves itself, or list the origin in its `cors.origins`); or nothing answers at
 * its address (start it, or correct the address).
 */
export function explainUnreachable(failure: UnifiedFailure, pageOrigin: string): string {
  if (failure.error.code === 'REQUEST_TIMEOUT') return 'Cancelled.';
  const { details } = failure.error;
  const gateway = textOf(details.gateway) ?? pageOrigin;
  if (details.reason === 'origin_refused') {
    const page = textOf(details.page_origin) ?? pageOrigin;
    return (
      `The gateway at ${gateway} answers but refuses requests from this page's origin (${page}). ` +
      `Open the console it serves itself at ${gateway}/, or add "${page}" to cors.origins in its config file.`
    );
  }
  return `No gateway answers at ${gateway}: start it (npx verdict gateway, or --demo to try it without an account), or correct the Gateway URL under Connection.`;
}
