/**
 * Keys with limits and the usage record, when the gateway has a store (docs/gateway.md, "Teams"): who is
 * calling (the admin key, a static key, or a stored `vk_` key, its record cached a few seconds), whether the key
 * may call this route and model and is under its limits — against slices of them this instance leased from the
 * store, so every instance sharing it stays within them — and one usage record per request, written off the
 * request's path.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { UnifiedOutput } from '../../unified/types.js';
import { replaceControlCharacters } from '../basics/plain-id.js';
import { providerRouteOf } from '../basics/route-table.js';
import type { Target } from '../pipeline/call-with-fallbacks.js';
import {
  type Caller,
  type GatewayEnv,
  type RequestFacts,
  respond,
  type SpendGate,
  systemFailure,
} from '../pipeline/gateway-env.js';
import { isSurfacePath } from '../pipeline/renderer.js';
import { chargeOf } from '../spend/charge-of.js';
import { formatUsd } from '../spend/cost-header.js';
import type { PriceBook } from '../spend/price-book.js';
import { type BudgetRefusal, pruneReservations } from '../store/budgets.js';
import { KeyLeases, type LeaseReservation } from '../store/key-leases.js';
import { findKeyBySecret, hashKey, type KeyRecord, looksLikeStoredKey } from '../store/keys.js';
import { pruneLeases } from '../store/leases.js';
import { type Admission, hasCountedLimits, pruneCounters, type Refusal } from '../store/limits.js';
import type { GatewayStore } from '../store/open-store.js';
import { rollUpUsage } from '../store/roll-up-usage.js';
import { UsageWriter, type UsageWriterOptions } from '../store/usage-writer.js';
import { createKeyCheck, offeredKey } from './check-key.js';
import { refuseWithoutKey } from './require-key.js';

/** What the teams part needs. */
export interface TeamsOptions {
  /** The open, migrated store. */
  store: GatewayStore;
  /** The admin key: required for `/v1/usage`; also accepted as an unlimited key named `admin`. */
  adminKey?: string | undefined;
  /** Static keys (unlimited, named `static`). */
  staticKeys: readonly string[];
  /**
   * While the store cannot be reached: `false` (the default) refuses stored keys with `PROVIDER_UNAVAILABLE`;
   * `true` admits a stored key this instance has seen in the last hour, without limits.
   */
  failOpen?: boolean | undefined;
  /** Log lines (JSON) about the store. */
  log?: ((line: string) => void) | undefined;
  /** Batching of the usage writer. */
  writer?: UsageWriterOptions | undefined;
  /** The clock (tests). */
  now?: (() => Date) | undefined;
  /** The prices of a billed failure's usage (a stream cut short), whose envelope carried no cost. */
  prices?: PriceBook | undefined;
  /** Days per-request usage rows are kept before the rollup job sums and deletes them (30). */
  retentionDays?: number | undefined;
}

/**
 * What the gateway calls: the middleware, the finish hook, health, metrics and the flush — and what the usage
 * routes read with (routes/usage-routes.ts): the store, the clock and the answer when the store fails.
 */
export interface Teams {
  /** Identify the caller and admit the request; for `/v1/*` and `/metrics`. */
  readonly guard: MiddlewareHandler<GatewayEnv>;
  /** Record a finished request and count its tokens. */
  finish(c: Context<GatewayEnv>, facts: RequestFacts, status: number, seconds: number): void;
  /** Whether the store answers now. */
  storeUp(): Promise<boolean>;
  /** Whether usage records have failed to be written several times in a row while the store may answer. */
  usageStuck(): boolean;
  /** `true` when stored keys are admitted without limits while the store is down. */
  readonly failOpen: boolean;
  /** The open store. */
  readonly store: GatewayStore;
  /** The clock. */
  now(): Date;
  /** The answer when the store fails, counted and logged. */
  storeDown(c: Context<GatewayEnv>, error: unknown): Response;
  /** What this instance leased for a key and has not used yet (docs/gateway.md, "Leases"). */
  unused(key: KeyRecord, at: Date): { requests: number; usd: number };
  /** Lines for `/metrics`. */
  metrics(): string[];
  /** Write the queued usage records (graceful shutdown); answers how many were dropped. */
  flush(deadlineMs?: number): Promise<number>;
}

const FAIL_OPEN_MEMORY_MS = 3_600_000;
/** How long a stored key's record is used before it is read again: a revoked key works this long at most. */
export const KEY_CACHE_MS = 5_000;
const KEY_CACHE_MAX = 10_000;
const FAIL_OPEN_MAX_KEYS = 10_000;
const PRUNE_EVERY_MS = 600_000;

/** A glob (`*` is any run of characters) as a test. */
function matchesGlob(glob: string, value: string): boolean {
  const pattern = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(value);
}

function matchesAny(globs: readonly string[], value: string): boolean {
  return globs.some((glob) => matchesGlob(glob, value));
}

/**
 * The targets of a request the caller may use: a key with `models` keeps only the targets matching one of its
 * globs (fallbacks included); none left is `PERMISSION_DENIED`.
 */
export function allowedTargets<T extends Target>(
  caller: Caller | undefined,
  model: string,
  targets: T[],
  traceId: string,
): { ok: true; targets: T[] } | { ok: false; failure: UnifiedOutput } {
  const globs = caller?.key?.models;
  if (globs === null || globs === undefined) return { ok: true, targets };
  const allowed = targets.filter((target) => matchesAny(globs, target.label));
  if (allowed.length > 0) return { ok: true, targets: allowed };
  return {
    ok: false,
    failure: systemFailure(
      'PERMISSION_DENIED',
      `The key "${caller?.name}" may not use the model "${model}"; it may use ${globs.join(', ')}.`,
      traceId,
      { limit: 'models', model, allowed: globs },
    ),
  };
}

/** Longest key the store is asked about; stored keys are far shorter. */
const MAX_OFFERED_KEY = 512;

function refusalEnvelope(caller: Caller, refusal: Refusal | BudgetRefusal, traceId: string): UnifiedOutput {
  if (refusal.limit === 'budget_usd') {
    return systemFailure(
      'INSUFFICIENT_CREDITS',
      `The key "${caller.name}" has $${formatUsd(Math.max(0, refusal.value - refusal.used))} left of its $${formatUsd(refusal.value)} budget this ${refusal.period === 'total' ? 'key' : refusal.period}; this call may cost up to $${formatUsd(refusal.reserve)}.`,
      traceId,
      { ...refusal, key: caller.name },
    );
  }
  if (refusal.limit === 'budget_tokens') {
    return systemFailure(
      'INSUFFICIENT_CREDITS',
      `The key "${caller.name}" has spent its token budget (${refusal.used} of ${refusal.value} tokens this ${refusal.period === 'total' ? 'key' : refusal.period}).`,
      traceId,
      { ...refusal, key: caller.name },
    );
  }
  const unit = refusal.limit === 'rpm' ? 'requests' : 'tokens';
  return systemFailure(
    'RATE_LIMITED',
    `The key "${caller.name}" is at its limit of ${refusal.value} ${unit} per minute; retry in ${refusal.reset_s} s.`,
    traceId,
    { ...refusal, key: caller.name, retry_after_s: refusal.reset_s },
  );
}

function rateLimitHeaders(limit: number, remaining: number, reset: number): Record<string, string> {
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(reset),
  };
}

/** Set headers on an answer already made, without rebuilding it (its headers are mutable: the gateway made it). */
function addHeaders(c: Context<GatewayEnv>, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      c.res.headers.set(name, value);
    } catch {
      c.header(name, value);
    }
  }
}

/** Build the teams part of a gateway over an open, migrated store. */
export function createTeams(options: TeamsOptions): Teams {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const isAdmin = options.adminKey === undefined ? undefined : createKeyCheck([options.adminKey]);
  const isStatic = options.staticKeys.length === 0 ? undefined : createKeyCheck(options.staticKeys);
  const failOpen = options.failOpen ?? false;
  const seen = new Map<string, { record: KeyRecord; at: number }>();
  /** Stored keys' records by hash, read at most {@link KEY_CACHE_MS} ago. */
  const cached = new Map<string, { record: KeyRecord; at: number }>();
  const counts = {
    storeErrors: 0,
    failOpenAdmissions: 0,
    tokenCountFailures: 0,
    spendCountFailures: 0,
    leaseFailures: 0,
  };
  /** Dollar reservations held in this instance's leases, by request: settled when the request's answer ends. */
  const reservations = new WeakMap<RequestFacts, LeaseReservation>();
  const leases = new KeyLeases({
    store,
    onError: (error, key) => {
      counts.leaseFailures++;
      log(
        JSON.stringify({
          time: now().toISOString(),
          event: 'lease_exchange_failed',
          key: key.name,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    },
  });
  let lastPrune = now().getTime();
  let rollingUp: Promise<void> | undefined;
  const writer = new UsageWriter(store, {
    ...options.writer,
    onDrop: (dropped, reason) => {
      log(
        JSON.stringify({ time: now().toISOString(), event: 'usage_dropped', dropped_total: dropped, reason }),
      );
      options.writer?.onDrop?.(dropped, reason);
    },
    onError: (error) => {
      counts.storeErrors++;
      log(JSON.stringify({ time: now().toISOString(), event: 'usage_write_failed', error: error.message }));
      options.writer?.onError?.(error);
    },
    onPark: (record, error) => {
      log(
        JSON.stringify({
          time: now().toISOString(),
          event: 'usage_record_parked',
          request_id: record.request_id,
          trace_id: record.trace_id,
          error: error.message,
        }),
      );
      options.writer?.onPark?.(record, error);
    },
  });

  const storeDown = (c: Context<GatewayEnv>, error: unknown) => {
    counts.storeErrors++;
    log(
      JSON.stringify({
        time: now().toISOString(),
        event: 'store_unreachable',
        trace_id: c.get('traceId'),
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return respond(
      c,
      systemFailure(
        'PROVIDER_UNAVAILABLE',
        "The gateway's store cannot be reached, so this key and its limits cannot be checked; retry shortly.",
        c.get('traceId'),
        { store: 'unreachable', retry_after_s: 5 },
      ),
      { 'retry-after': '5' },
    );
  };

  const identify = async (
    c: Context<GatewayEnv>,
    token: string,
  ): Promise<Caller | { refused: Response } | undefined> => {
    if (isAdmin !== undefined && (await isAdmin(token))) return { name: 'admin', kind: 'admin' };
    if (isStatic !== undefined && (await isStatic(token))) return { name: 'static', kind: 'static' };
    if (!looksLikeStoredKey(token)) return undefined;
    const hash = await hashKey(token);
    let record: KeyRecord | undefined;
    const hit = cached.get(hash);
    try {
      if (hit !== undefined && now().getTime() - hit.at < KEY_CACHE_MS) record = hit.record;
      else {
        record = await findKeyBySecret(store, token);
        if (record !== undefined) {
          if (cached.size >= KEY_CACHE_MAX) cached.delete(cached.keys().next().value as string);
          cached.set(hash, { record, at: now().getTime() });
        }
      }
    } catch (error) {
      const remembered = failOpen ? seen.get(hash) : undefined;
      if (remembered !== undefined && now().getTime() - remembered.at < FAIL_OPEN_MEMORY_MS) {
        counts.failOpenAdmissions++;
        return { name: remembered.record.name, kind: 'stored' };
      }
      return { refused: storeDown(c, error) };
    }
    if (record === undefined) return undefined;
    const traceId = c.get('traceId');
    if (
      record.revoked_at !== null ||
      (record.expires_at !== null && Date.parse(record.expires_at) <= now().getTime())
    ) {
      return {
        refused: respond(
          c,
          systemFailure(
            'AUTHENTICATION_ERROR',
            `The key "${record.name}" was ${record.revoked_at !== null ? 'revoked' : 'valid until'} ${record.revoked_at ?? record.expires_at}.`,
            traceId,
            { key: record.name },
          ),
          { 'www-authenticate': 'Bearer' },
        ),
      };
    }
    if (failOpen) {
      if (seen.size >= FAIL_OPEN_MAX_KEYS) seen.delete(seen.keys().next().value as string);
      seen.set(hash, { record, at: now().getTime() });
    }
    return { name: record.name, kind: 'stored', key: record };
  };

  const guard: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    const traceId = c.get('traceId');
    const token = offeredKey((name) => c.req.header(name));
    const found =
      token === undefined || token.length > MAX_OFFERED_KEY ? undefined : await identify(c, token);
    if (found !== undefined && 'refused' in found) return found.refused;
    if (found === undefined) return refuseWithoutKey(c);
    const caller = found;
    c.set('caller', caller);
    c.get('facts').key = caller.name;
    const route = c.get('facts').route;
    if (route.startsWith('/v1/usage') && caller.kind !== 'admin') {
      return respond(
        c,
        systemFailure(
          'PERMISSION_DENIED',
          options.adminKey === undefined
            ? 'Usage is read with the admin key; this gateway has none (set VERDICT_ADMIN_KEY).'
            : 'Usage is read with the admin key.',
          traceId,
          { route },
        ),
      );
    }
    const routeName = providerRouteOf(route);
    const key = caller.key;
    if (routeName === undefined || key === undefined) return next();
    if (key.budget_usd !== null) c.set('spend', spendGate(c, caller, key));
    if (key.routes !== null && !matchesAny(key.routes, routeName)) {
      return respond(
        c,
        systemFailure(
          'PERMISSION_DENIED',
          `The key "${caller.name}" may not use /v1/${routeName}; it may use ${key.routes.join(', ')}.`,
          traceId,
          { limit: 'routes', route: routeName, allowed: key.routes },
        ),
      );
    }
    if (!hasCountedLimits(key)) return next();
    let admission: Admission;
    try {
      admission = await leases.admit(key, now);
    } catch (error) {
      if (!failOpen) return storeDown(c, error);
      counts.failOpenAdmissions++;
      return next();
    }
    if (!admission.admitted) {
      const { refusal } = admission;
      const headers: Record<string, string> =
        refusal.limit === 'budget_tokens'
          ? {}
          : {
              'retry-after': String(refusal.reset_s),
              ...rateLimitHeaders(refusal.value, 0, refusal.reset_s),
            };
      return respond(c, refusalEnvelope(caller, refusal, traceId), headers);
    }
    await next();
    if (key.rpm !== null)
      addHeaders(c, rateLimitHeaders(key.rpm, key.rpm - admission.requests, admission.reset_s));
  };

  /** The dollar budget of one request's key: its reservation, under the store-outage policy. */
  const spendGate = (c: Context<GatewayEnv>, caller: Caller, key: KeyRecord): SpendGate => ({
    async reserve(usd, ttlMs) {
      let reservation: Awaited<ReturnType<KeyLeases['reserve']>>;
      try {
        reservation = await leases.reserve(key, usd, ttlMs, now);
      } catch (error) {
        if (!failOpen) return storeDown(c, error);
        counts.failOpenAdmissions++;
        return undefined;
      }
      if (reservation.reserved) {
        reservations.set(c.get('facts'), reservation.hold);
        return undefined;
      }
      return respond(c, refusalEnvelope(caller, reservation.refusal, c.get('traceId')));
    },
  });

  return {
    guard,
    failOpen,
    finish(c, facts, status, seconds) {
      // The API's requests, on verdict's own surface or a drop-in one; not the console, metrics or health.
      if (!c.req.path.startsWith('/v1/') && !isSurfacePath(c.req.path)) return;
      const ended = now();
      const input = facts.usage?.input_tokens ?? 0;
      const output = facts.usage?.output_tokens ?? 0;
      // One charge for the token limits, the dollar budget and the record (docs/gateway.md, "Prices").
      const { tokens, cost } = chargeOf(facts, options.prices, ended);
      // The cost replaces the call's dollar reservation; tokens and dollars go to the key's leases and counters.
      const key = c.get('caller')?.key;
      if (key !== undefined)
        leases.consume(key, { tokens, usd: cost?.usd ?? 0, hold: reservations.get(facts) }, ended);
      writer.add({
        request_id: globalThis.crypto.randomUUID(),
        time: new Date(ended.getTime() - seconds * 1000).toISOString(),
        trace_id: c.get('traceId'),
        key_name: facts.key ?? null,
        route: facts.route,
        surface: facts.surface ?? 'verdict',
        // The model is the one the provider reported: whatever bytes it sent, the record stays writable.
        provider: orNull(facts.provider),
        model: orNull(facts.model),
        target: orNull(facts.target),
        attempts: facts.attempts,
        status,
        code: facts.code ?? (status < 400 ? 'ok' : 'INTERNAL_ERROR'),
        latency_ms: Math.round(seconds * 1000),
        input_tokens: input,
        output_tokens: output,
        cost_usd: cost === undefined ? 0 : cost.usd,
        cost_reason: cost?.reason ?? null,
        cache: facts.cache ?? null,
        cost_saved_usd: facts.costSavedUsd ?? null,
      });
      // Per-minute counters are only read for the current minute: delete old ones now and then.
      if (ended.getTime() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = ended.getTime();
        Promise.all([
          pruneCounters(store, ended),
          pruneReservations(store, ended),
          pruneLeases(store, ended),
        ]).catch(() => {
          counts.storeErrors++;
        });
        // One run at a time per instance; across instances the job's advisory lock lets one move each batch.
        if (rollingUp === undefined)
          rollingUp = rollUpUsage(store, ended, { retentionDays: options.retentionDays })
            .then((report) => {
              if (report.moved > 0)
                log(JSON.stringify({ time: ended.toISOString(), event: 'usage_rolled_up', ...report }));
            })
            .catch(() => {
              counts.storeErrors++;
            })
            .finally(() => {
              rollingUp = undefined;
            });
      }
    },
    async storeUp() {
      try {
        await store.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    usageStuck: () => writer.stuck,
    store,
    now,
    storeDown,
    unused: (key, at) => leases.unused(key, at),
    metrics() {
      const { stats } = writer;
      return [
        '# HELP verdict_gateway_usage_records_written_total Usage records written to the store.',
        '# TYPE verdict_gateway_usage_records_written_total counter',
        `verdict_gateway_usage_records_written_total ${stats.written}`,
        '# HELP verdict_gateway_usage_records_dropped_total Usage records dropped (queue full, or store down at shutdown).',
        '# TYPE verdict_gateway_usage_records_dropped_total counter',
        `verdict_gateway_usage_records_dropped_total ${stats.dropped}`,
        '# HELP verdict_gateway_usage_records_parked_total Usage records the store refused for their content, set aside.',
        '# TYPE verdict_gateway_usage_records_parked_total counter',
        `verdict_gateway_usage_records_parked_total ${stats.parked}`,
        '# HELP verdict_gateway_usage_queue Usage records waiting to be written.',
        '# TYPE verdict_gateway_usage_queue gauge',
        `verdict_gateway_usage_queue ${stats.queued}`,
        '# HELP verdict_gateway_store_errors_total Store operations that failed or timed out.',
        '# TYPE verdict_gateway_store_errors_total counter',
        `verdict_gateway_store_errors_total ${counts.storeErrors}`,
        '# HELP verdict_gateway_tokens_not_counted_total Keys whose consumed tokens could not be written to the store at a stop (their leases expire instead).',
        '# TYPE verdict_gateway_tokens_not_counted_total counter',
        `verdict_gateway_tokens_not_counted_total ${counts.tokenCountFailures}`,
        '# HELP verdict_gateway_spend_not_counted_total Keys whose spent dollars could not be written to the store at a stop (their leases expire instead).',
        '# TYPE verdict_gateway_spend_not_counted_total counter',
        `verdict_gateway_spend_not_counted_total ${counts.spendCountFailures}`,
        '# HELP verdict_gateway_lease_exchanges_total Exchanges of limit leases with the store (each one transaction).',
        '# TYPE verdict_gateway_lease_exchanges_total counter',
        `verdict_gateway_lease_exchanges_total ${leases.exchanges}`,
        '# HELP verdict_gateway_lease_exchanges_failed_total Lease exchanges the store failed (consumption is kept and sent again).',
        '# TYPE verdict_gateway_lease_exchanges_failed_total counter',
        `verdict_gateway_lease_exchanges_failed_total ${counts.leaseFailures}`,
        '# HELP verdict_gateway_fail_open_admissions_total Stored-key requests admitted unchecked while the store was down.',
        '# TYPE verdict_gateway_fail_open_admissions_total counter',
        `verdict_gateway_fail_open_admissions_total ${counts.failOpenAdmissions}`,
      ];
    },
    async flush(deadlineMs) {
      // What the leases hold goes back, and what they counted is written; a store that fails leaves them to expire.
      const kept = await leases.release(now());
      if (kept > 0) {
        counts.tokenCountFailures += kept;
        counts.spendCountFailures += kept;
        log(JSON.stringify({ time: now().toISOString(), event: 'leases_not_returned', keys: kept }));
      }
      return writer.flush(deadlineMs);
    },
  };
}

function orNull(id: string | undefined): string | null {
  return id === undefined ? null : replaceControlCharacters(id);
}
