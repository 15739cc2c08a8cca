/** The store's own failure (docs/gateway.md, "Teams"). */

/** Why a store operation failed: the store is unreachable or failed, or the deadline passed. */
export class StoreError extends Error {
  /** `store_unreachable` or `store_timeout`. */
  readonly code: 'store_unreachable' | 'store_timeout';

  constructor(code: 'store_unreachable' | 'store_timeout', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}
