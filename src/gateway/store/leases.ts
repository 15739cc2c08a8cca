import type { KeyRecord } from './keys.js';
import { minuteStart, periodStart } from './limits.js';
import type { GatewayStore, QueryFn } from './open-store.js';

/**
 * Leases (docs/gateway.md, "Leases"): an instance takes a slice of a key's limits from the store in one
 * transaction, admits requests against it without asking the store again, and reports what its requests
 * consumed. Requests per minute are leased by adding the slice to the minute's request counter, so the counter
 * never passes the rpm; tokens and dollars are leased as rows of `verdict_leases` that count against the limit
 * beside what was consumed, until they are used up, returned, or expire.
 */

/** What can be leased besides requests: tokens per minute, tokens per budget period, nanodollars per period. */
export const POOLED_KINDS = ['tokens', 'budget', 'spend'] as const;

/** One of {@link POOLED_KINDS}; also the kind of the counter the consumption is added to. */
export type PooledKind = (typeof POOLED_KINDS)[number];

/** Consumption of finished requests, charged to the windows they ended in. */
export interface Consumption {
  /** Start of the minute (ISO 8601). */
  minute: string;
  /** Start of the budget period (ISO 8601). */
  period: string;
  /** Tokens (input + output). */
  tokens: number;
  /** Nanodollars. */
  nano: number;
}

/** One exchange with the store for a key: consumption to add, slices wanted, and whether to return everything. */
export interface LeaseExchange {
  /** This instance (a random id per gateway). */
  instance: string;
  /** What finished requests consumed since the last exchange. */
  consumed: readonly Consumption[];
  /** Slices wanted now; a kind left out is not leased. `need` is the least that is any use (else refused). */
  want: Partial<Record<'requests' | PooledKind, { slice: number; need: number }>>;
  /** Requests leased earlier and not used, to give back to their minute's counter. */
  unusedRequests?: { minute: string; count: number } | undefined;
  /** Give back every pooled lease of this instance (graceful stop). */
  release?: boolean | undefined;
  /** How long a pooled lease lives unless renewed. */
  ttlMs: number;
}

/** The store's answer for one kind. */
export interface LeaseState {
  /** Granted now (0 when refused or not asked). */
  granted: number;
  /** This instance's live lease after the exchange (for requests: 0, the slice being in the counter). */
  held: number;
  /** What the limit's window holds after the exchange: consumed (or, for requests, leased) plus live leases. */
  used: number;
  /** True when a slice was wanted and not even `need` was left. */
  refused: boolean;
}

/** The answer of {@link exchangeLeases}, for each kind asked. */
export type LeaseAnswer = Partial<Record<'requests' | PooledKind, LeaseState>>;

/** The limit each kind is leased from. */
function limitOf(key: KeyRecord, kind: 'requests' | PooledKind): number | null {
  if (kind === 'requests') return key.rpm;
  if (kind === 'tokens') return key.tpm;
  if (kind === 'budget') return key.budget_tokens;
  return key.budget_usd === null ? null : Math.floor(key.budget_usd * 1e9);
}

const ADD_TO_COUNTER = `INSERT INTO verdict_counters (key_name, kind, window_start, used)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (key_name, kind, window_start) DO UPDATE SET used = verdict_counters.used + EXCLUDED.used`;

const USE_LEASE = `UPDATE verdict_leases SET amount = GREATEST(0, amount - $5)
  WHERE key_name = $1 AND instance = $2 AND kind = $3 AND window_start = $4`;

/** The pooled window a kind is counted in. */
function windowOf(kind: PooledKind, minute: string, period: string): string {
  return kind === 'tokens' ? minute : period;
}

async function addConsumption(
  query: QueryFn,
  key: KeyRecord,
  instance: string,
  consumed: Consumption,
): Promise<void> {
  // The counters are the record of what was consumed: tokens count where the key has a token limit, as before
  // leases; dollars where it has a dollar budget.
  const amounts: [PooledKind, number][] = [
    ['tokens', key.tpm === null ? 0 : consumed.tokens],
    ['budget', key.budget_tokens === null ? 0 : consumed.tokens],
    ['spend', key.budget_usd === null ? 0 : consumed.nano],
  ];
  for (const [kind, amount] of amounts) {
    if (amount <= 0) continue;
    const window = windowOf(kind, consumed.minute, consumed.period);
    await query(ADD_TO_COUNTER, [key.name, kind, window, amount]);
    await query(USE_LEASE, [key.name, instance, kind, window, amount]);
  }
}

/**
 * Exchange leases of `key` with the store, in one transaction under the key's advisory lock (the one dollar
 * reservations take too): consumption is added to the counters and taken off this instance's leases, unused
 * requests go back, and the slices wanted are granted from what is left under each limit — whole when there is
 * room, else what is left when it covers `need`, else refused.
 */
export async function exchangeLeases(
  store: GatewayStore,
  key: KeyRecord,
  exchange: LeaseExchange,
  now: Date,
): Promise<LeaseAnswer> {
  const minute = minuteStart(now).toISOString();
  const period = periodStart(key.budget_period ?? 'day', now).toISOString();
  const at = now.toISOString();
  const expires = new Date(now.getTime() + exchange.ttlMs).toISOString();
  return store.transaction(async (query) => {
    await query("SELECT pg_advisory_xact_lock(hashtext('verdict_budget:' || $1))", [key.name]);
    for (const consumed of exchange.consumed) await addConsumption(query, key, exchange.instance, consumed);
    const unused = exchange.unusedRequests;
    if (unused !== undefined && unused.count > 0) {
      await query(
        `UPDATE verdict_counters SET used = GREATEST(0, used - $3)
         WHERE key_name = $1 AND kind = 'requests' AND window_start = $2`,
        [key.name, unused.minute, unused.count],
      );
    }
    if (exchange.release === true) {
      await query('DELETE FROM verdict_leases WHERE key_name = $1 AND instance = $2', [
        key.name,
        exchange.instance,
      ]);
    }
    const answer: LeaseAnswer = {};
    for (const kind of POOLED_KINDS) {
      const want = exchange.want[kind];
      const limit = limitOf(key, kind);
      if (want === undefined || limit === null) continue;
      const window = windowOf(kind, minute, period);
      const [row] = await query<{ consumed: number; leased: number; reserved: number; held: number }>(
        `SELECT
           (SELECT COALESCE(MAX(used), 0) FROM verdict_counters
             WHERE key_name = $1 AND kind = $2 AND window_start = $3)::float8 AS consumed,
           (SELECT COALESCE(SUM(amount), 0) FROM verdict_leases
             WHERE key_name = $1 AND kind = $2 AND window_start = $3 AND expires_at > $4)::float8 AS leased,
           (SELECT COALESCE(SUM(amount), 0) FROM verdict_reservations
             WHERE key_name = $1 AND $2 = 'spend' AND expires_at > $4)::float8 AS reserved,
           (SELECT COALESCE(SUM(amount), 0) FROM verdict_leases
             WHERE key_name = $1 AND instance = $5 AND kind = $2 AND window_start = $3
               AND expires_at > $4)::float8 AS held`,
        [key.name, kind, window, at, exchange.instance],
      );
      const used = Number(row?.consumed ?? 0) + Number(row?.leased ?? 0) + Number(row?.reserved ?? 0);
      const held = Number(row?.held ?? 0);
      const room = limit - used;
      const granted = room >= Math.max(1, want.need) ? Math.min(Math.max(want.slice, want.need), room) : 0;
      // A live lease grows and lives on; an expired one (stopped counting) starts again from the grant.
      if (granted > 0)
        await query(
          `INSERT INTO verdict_leases (key_name, instance, kind, window_start, amount, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (key_name, instance, kind, window_start) DO UPDATE SET
           amount = CASE WHEN verdict_leases.expires_at > $7 THEN verdict_leases.amount ELSE 0 END + EXCLUDED.amount,
           expires_at = EXCLUDED.expires_at`,
          [key.name, exchange.instance, kind, window, granted, expires, at],
        );
      answer[kind] = { granted, held: held + granted, used: used + granted, refused: granted === 0 };
    }
    const wantRequests = exchange.want.requests;
    const rpm = key.rpm;
    // Requests are leased only when the token and dollar limits let the request in: a refused key holds no slice.
    if (
      wantRequests !== undefined &&
      rpm !== null &&
      answer.tokens?.refused !== true &&
      answer.budget?.refused !== true
    ) {
      const [row] = await query<{ used: number }>(
        `SELECT COALESCE(MAX(used), 0)::float8 AS used FROM verdict_counters
         WHERE key_name = $1 AND kind = 'requests' AND window_start = $2`,
        [key.name, minute],
      );
      const used = Number(row?.used ?? 0);
      const room = rpm - used;
      const granted = room >= wantRequests.need ? Math.min(wantRequests.slice, room) : 0;
      if (granted > 0) await query(ADD_TO_COUNTER, [key.name, 'requests', minute, granted]);
      answer.requests = { granted, held: 0, used: used + granted, refused: granted === 0 };
    }
    return answer;
  });
}

/** Delete leases that expired (their instances went away, or stopped using them). */
export async function pruneLeases(store: GatewayStore, now: Date): Promise<void> {
  await store.query('DELETE FROM verdict_leases WHERE expires_at < $1', [now.toISOString()]);
}
