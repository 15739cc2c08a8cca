import type { KeyRecord } from './keys.js';
import { periodResetSeconds, periodStart } from './limits.js';
import type { GatewayStore } from './open-store.js';

/**
 * Budgets in dollars (docs/gateway.md, "Budgets in dollars"): before a call, its worst case is reserved against
 * the key's budget — under a per-key lock, so instances sharing the store take turns — and when it ends its
 * real cost replaces the reservation. Amounts are kept in nanodollars (whole numbers, so sums are exact).
 */

/** Nanodollars per dollar. */
const NANO = 1e9;

/** Dollars as whole nanodollars, rounded up: a reservation never holds less than the price. */
function toNano(usd: number): number {
  return Math.ceil(usd * NANO);
}

/** The period's settled spend and what is held for calls not ended (reservations and live leases), in nanodollars. */
const SPEND_NOW = `SELECT
  (SELECT COALESCE(MAX(used), 0) FROM verdict_counters
    WHERE key_name = $1 AND kind = 'spend' AND window_start = $2)::float8 AS spent,
  ((SELECT COALESCE(SUM(amount), 0) FROM verdict_reservations
    WHERE key_name = $1 AND expires_at > $3)
  + (SELECT COALESCE(SUM(amount), 0) FROM verdict_leases
    WHERE key_name = $1 AND kind = 'spend' AND window_start = $2 AND expires_at > $3))::float8 AS reserved`;

function spendParameters(key: KeyRecord, now: Date): string[] {
  return [key.name, periodStart(key.budget_period ?? 'day', now).toISOString(), now.toISOString()];
}

/** Why a call was not admitted under the key's dollar budget, for the envelope's details. */
export interface BudgetRefusal {
  /** Always `budget_usd`. */
  limit: 'budget_usd';
  /** The budget, in dollars. */
  value: number;
  /** Dollars spent and reserved in the period. */
  used: number;
  /** The worst case of the call that did not fit, in dollars. */
  reserve: number;
  /** The budget's period. */
  period: 'day' | 'month' | 'total';
  /** Seconds until the period ends (`null` for `total`). */
  reset_s: number | null;
}

/** A reservation made, or the refusal. */
export type Reservation = { reserved: true; id: string } | { reserved: false; refusal: BudgetRefusal };

/** The key's spend now: settled in the period and reserved by calls not yet ended, in dollars. */
export interface SpendNow {
  /** Settled costs of the period. */
  spent: number;
  /** Held for calls in flight: live dollar leases of instances, and reservations not yet expired. */
  reserved: number;
}

/**
 * Reserve `usd` against `key`'s dollar budget, in one transaction under an advisory lock on the key: admitted
 * only when the period's settled spend, the live reservations and `usd` fit in the budget. A reservation lives
 * `ttlMs` at most: one an instance never settled (it crashed) stops counting then.
 */
export async function reserveSpend(
  store: GatewayStore,
  key: KeyRecord,
  usd: number,
  ttlMs: number,
  now: Date,
): Promise<Reservation> {
  const budget = key.budget_usd;
  const period = key.budget_period ?? 'day';
  const id = globalThis.crypto.randomUUID();
  const amount = toNano(usd);
  if (budget === null) return { reserved: true, id };
  return store.transaction(async (query) => {
    await query("SELECT pg_advisory_xact_lock(hashtext('verdict_budget:' || $1))", [key.name]);
    const rows = await query<{ spent: number; reserved: number }>(SPEND_NOW, spendParameters(key, now));
    const used = Number(rows[0]?.spent ?? 0) + Number(rows[0]?.reserved ?? 0);
    if (used + amount > toNano(budget)) {
      return {
        reserved: false as const,
        refusal: {
          limit: 'budget_usd' as const,
          value: budget,
          used: used / NANO,
          reserve: amount / NANO,
          period,
          reset_s: periodResetSeconds(period, now),
        },
      };
    }
    await query(
      'INSERT INTO verdict_reservations (id, key_name, amount, expires_at) VALUES ($1, $2, $3, $4)',
      [id, key.name, amount, new Date(now.getTime() + ttlMs).toISOString()],
    );
    return { reserved: true as const, id };
  });
}

/**
 * Settle a call: its reservation goes and its cost is added to the key's spend of the period, in one statement.
 * A cost of 0 (nothing billed, or no price known) only frees the reservation.
 */
export async function settleSpend(
  store: GatewayStore,
  key: KeyRecord,
  reservationId: string | undefined,
  usd: number,
  now: Date,
): Promise<void> {
  const amount = toNano(Math.max(0, usd));
  await store.query(
    `WITH freed AS (DELETE FROM verdict_reservations WHERE id = $1 RETURNING id)
     INSERT INTO verdict_counters (key_name, kind, window_start, used)
     SELECT $2::text, 'spend', $3::timestamptz, $4::bigint WHERE $4::bigint > 0
     ON CONFLICT (key_name, kind, window_start) DO UPDATE SET used = verdict_counters.used + EXCLUDED.used`,
    [reservationId ?? '', key.name, periodStart(key.budget_period ?? 'day', now).toISOString(), amount],
  );
}

/** What the key has spent in its period and what calls in flight have reserved, in dollars. */
export async function readSpend(store: GatewayStore, key: KeyRecord, now: Date): Promise<SpendNow> {
  const rows = await store.query<{ spent: number; reserved: number }>(SPEND_NOW, spendParameters(key, now));
  return { spent: Number(rows[0]?.spent ?? 0) / NANO, reserved: Number(rows[0]?.reserved ?? 0) / NANO };
}

/** Delete reservations that expired (their calls' instances went away before settling them). */
export async function pruneReservations(store: GatewayStore, now: Date): Promise<void> {
  await store.query('DELETE FROM verdict_reservations WHERE expires_at < $1', [now.toISOString()]);
}
