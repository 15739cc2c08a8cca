/**
 * Waiting without holding anything up: the one abort-aware pause of verdict, for retries, polls and back-offs.
 * It has no `node:` import, so the client and the gateway use it in any runtime.
 */

/**
 * Wait `ms` milliseconds, or less when `signal` aborts (at once when it is aborted already). Never rejects:
 * answers `true` when the whole time passed and `false` when the signal cut it short.
 * @example
 * if (!(await sleep(2000, request.signal))) return; // the caller went away
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    function stop() {
      clearTimeout(timer);
      resolve(false);
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}
