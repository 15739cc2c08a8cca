import type { GatewayStore } from '../store/open-store.js';

/**
 * The store's tier of the response cache (docs/gateway.md, "Cache"): one row per entry in `verdict_cache`,
 * shared by every instance on the store. Reads skip expired rows; a sweep run in the background deletes them and
 * the oldest rows past the size cap.
 */

/** One row as the cache reads it. */
export interface StoredCacheEntry {
  /** The entry's JSON. */
  readonly answer: string;
  /** When it was stored, in milliseconds since the epoch. */
  readonly storedAt: number;
  /** When it stops answering, in milliseconds since the epoch. */
  readonly expiresAt: number;
}

/** The entry under `key` that has not expired at `now`, if any. */
export async function readStoredEntry(
  store: GatewayStore,
  key: string,
  now: Date,
): Promise<StoredCacheEntry | undefined> {
  const rows = await store.query<{ answer: string; stored_at: Date | string; expires_at: Date | string }>(
    'SELECT answer, stored_at, expires_at FROM verdict_cache WHERE key = $1 AND expires_at > $2',
    [key, now.toISOString()],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    answer: row.answer,
    storedAt: new Date(row.stored_at).getTime(),
    expiresAt: new Date(row.expires_at).getTime(),
  };
}

/** Store an entry (a later answer for the same key replaces it). */
export async function writeStoredEntry(
  store: GatewayStore,
  key: string,
  answer: string,
  bytes: number,
  storedAt: Date,
  expiresAt: Date,
): Promise<void> {
  await store.query(
    `INSERT INTO verdict_cache (key, answer, bytes, stored_at, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key) DO UPDATE SET answer = $2, bytes = $3, stored_at = $4, expires_at = $5`,
    [key, answer, bytes, storedAt.toISOString(), expiresAt.toISOString()],
  );
}

/** Delete the expired entries, then the oldest ones while the rest are over `maxBytes`; answers how many. */
export async function sweepStoredEntries(store: GatewayStore, now: Date, maxBytes: number): Promise<number> {
  const expired = await store.query<{ key: string }>(
    'DELETE FROM verdict_cache WHERE expires_at <= $1 RETURNING key',
    [now.toISOString()],
  );
  const over = await store.query<{ key: string }>(
    `DELETE FROM verdict_cache WHERE key IN (
       SELECT key FROM (
         SELECT key, sum(bytes) OVER (ORDER BY stored_at DESC, key) AS kept FROM verdict_cache
       ) AS running WHERE kept > $1
     ) RETURNING key`,
    [maxBytes],
  );
  return expired.length + over.length;
}
