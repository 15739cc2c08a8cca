import type { BudgetRefusal } from './budgets.js';
import type { KeyRecord } from './keys.js';
import {
  type Consumption,
  exchangeLeases,
  type LeaseAnswer,
  type LeaseExchange,
  type PooledKind,
} from './leases.js';
import { type Admission, minuteStart, periodResetSeconds, periodStart, type Refusal } from './limits.js';
import type { GatewayStore } from './open-store.js';

/**
 * The leases of one gateway instance (docs/gateway.md, "Leases"): admission against the slices of each key's
 * limits this instance holds, with no store round trip while a slice has room; one exchange with the store when
 * a slice runs out, shared by every request waiting for it; consumption written behind the answers, one
 * exchange at a time per key.
 */

/** A slice is this fraction of the limit (1/16), or what one request needs when that is more. */
export const LEASE_PARTS = 16;

/** A pooled lease (tokens, dollars) lives this long in the store unless its instance exchanges again. */
export const LEASE_TTL_MS = 30_000;

/** A lease is not used locally in its last seconds, so this instance never admits on one the store let go. */
const RENEW_MARGIN_MS = 5_000;

/**
 * Consumption alone is sent at most this often per key: under load the answers of that time share one exchange
 * (one transaction) instead of each starting one. Leases hold what is consumed, so the bounds do not change.
 */
export const CONSUMPTION_PACE_MS = 100;

/** Exchanges one admission may wait through before it is refused as over the limit. */
const MAX_ROUNDS = 8;

const NANO = 1e9;

/** A slice of a pooled limit this instance holds for one window. */
interface Pool {
  /** Start of the window (ms). */
  window: number;
  /** What the store holds for this instance, as of the last exchange. */
  held: number;
  /** Consumed since, not yet sent. */
  pending: number;
  /** Worst cases of dollar calls in flight. */
  reserved: number;
  /** When this instance stops using it (the store's expiry less a margin), ms. */
  usableUntil: number;
}

/** Requests leased for one minute. */
interface RequestSlice {
  /** Start of the minute (ms). */
  window: number;
  /** Leased and not yet used. */
  left: number;
  /** The minute's request counter after the last lease (leased by every instance). */
  counted: number;
}

/** A queued exchange, which requests arriving meanwhile join. */
interface Queued {
  want: LeaseExchange['want'];
  done: Promise<LeaseAnswer>;
}

interface KeyState {
  key: KeyRecord;
  requests?: RequestSlice | undefined;
  pools: Partial<Record<PooledKind, Pool>>;
  /** Consumption not yet sent, by `minute|period`. */
  consumed: Map<string, Consumption>;
  /** The exchange under way (exchanges of a key run one after another). */
  running: Promise<unknown>;
  queued?: Queued | undefined;
  /** When the last exchange started (this process's clock, ms). */
  lastStart: number;
  /** The timer that sends consumption once the pace allows, when one is set. */
  paced?: ReturnType<typeof setTimeout> | undefined;
}

/** A dollar reservation held in this instance's lease, settled when its call ends. */
export interface LeaseReservation {
  /** The budget period's start (ms) it was taken in. */
  window: number;
  /** Nanodollars. */
  nano: number;
}

/** What {@link KeyLeases} needs. */
export interface KeyLeasesOptions {
  /** The open store. */
  store: GatewayStore;
  /** Told when consumption could not be written (it is kept and sent with the next exchange). */
  onError?: ((error: unknown, key: KeyRecord) => void) | undefined;
  /** Life of a pooled lease in the store ({@link LEASE_TTL_MS}). */
  ttlMs?: number | undefined;
}

function sliceOf(limit: number): number {
  return Math.max(1, Math.floor(limit / LEASE_PARTS));
}

function mergeWant(into: LeaseExchange['want'], more: LeaseExchange['want']): void {
  for (const kind of Object.keys(more) as (keyof LeaseExchange['want'])[]) {
    const add = more[kind];
    if (add === undefined) continue;
    const has = into[kind];
    // A need covers one waiting request (the largest); the slice grows to serve every one waiting.
    into[kind] =
      has === undefined
        ? { ...add }
        : { slice: Math.max(has.slice, add.slice) + add.need, need: Math.max(has.need, add.need) };
  }
}

/** The leases of one instance, for every key it has seen. */
export class KeyLeases {
  /** This instance's id in the store's lease rows. */
  readonly instance = globalThis.crypto.randomUUID();
  /** Exchanges made with the store (each one transaction). */
  exchanges = 0;
  readonly #store: GatewayStore;
  readonly #ttlMs: number;
  readonly #onError: (error: unknown, key: KeyRecord) => void;
  readonly #keys = new Map<string, KeyState>();

  constructor(options: KeyLeasesOptions) {
    this.#store = options.store;
    this.#ttlMs = options.ttlMs ?? LEASE_TTL_MS;
    this.#onError = options.onError ?? (() => undefined);
  }

  #stateOf(key: KeyRecord): KeyState {
    let state = this.#keys.get(key.name);
    if (state === undefined) {
      state = { key, pools: {}, consumed: new Map(), running: Promise.resolve(), lastStart: 0 };
      this.#keys.set(key.name, state);
    }
    // The newest record's limits apply (a key changed in the store is re-read within the key cache's life).
    state.key = key;
    return state;
  }

  #windowOf(key: KeyRecord, kind: PooledKind, now: Date): number {
    return kind === 'tokens'
      ? minuteStart(now).getTime()
      : periodStart(key.budget_period ?? 'day', now).getTime();
  }

  /** The pool of `kind` usable now, or `undefined` (none, another window, or about to expire). */
  #poolNow(state: KeyState, kind: PooledKind, now: Date): Pool | undefined {
    const pool = state.pools[kind];
    if (pool === undefined || pool.window !== this.#windowOf(state.key, kind, now)) return undefined;
    return now.getTime() < pool.usableUntil ? pool : undefined;
  }

  /** The kinds admission lacks room in, with what to ask for. */
  #admissionWants(state: KeyState, now: Date): LeaseExchange['want'] {
    const { key } = state;
    const want: LeaseExchange['want'] = {};
    const slice = state.requests;
    if (key.rpm !== null && !(slice?.window === minuteStart(now).getTime() && slice.left >= 1))
      want.requests = { slice: sliceOf(key.rpm), need: 1 };
    for (const [kind, limit] of [
      ['tokens', key.tpm],
      ['budget', key.budget_tokens],
    ] as const) {
      if (limit === null) continue;
      const pool = this.#poolNow(state, kind, now);
      // Admitted while the slice is not used up, as a key without leases is while its count is under the limit.
      if (pool === undefined || pool.held - pool.pending <= 0)
        want[kind] = { slice: sliceOf(limit), need: 1 };
    }
    return want;
  }

  /**
   * Admit one request of `key` against its rpm, tpm and token budget: from this instance's slices when they
   * have room (no store round trip), else after one exchange shared with the requests waiting beside it.
   * Rejects with the store's error when an exchange is needed and the store fails.
   */
  async admit(key: KeyRecord, now: () => Date): Promise<Admission> {
    const state = this.#stateOf(key);
    for (let round = 0; ; round++) {
      const at = now();
      const want = this.#admissionWants(state, at);
      if (Object.keys(want).length === 0) {
        const slice = state.requests;
        if (slice === undefined || key.rpm === null) return { admitted: true, requests: 0, reset_s: 60 };
        slice.left--;
        const resetSeconds = Math.max(1, Math.ceil((slice.window + 60_000 - at.getTime()) / 1000));
        return { admitted: true, requests: slice.counted - slice.left, reset_s: resetSeconds };
      }
      const answer = await this.#exchange(state, at, want);
      const refusal = this.#admissionRefusal(state, answer, want, now());
      if (refusal !== undefined) return { admitted: false, refusal };
      // Granted, but requests that joined the same exchange may have taken it all: another round, bounded.
      if (round >= MAX_ROUNDS) return { admitted: false, refusal: this.#busyRefusal(state, now()) };
    }
  }

  #admissionRefusal(
    state: KeyState,
    answer: LeaseAnswer,
    want: LeaseExchange['want'],
    at: Date,
  ): Refusal | undefined {
    const { key } = state;
    const minuteReset = Math.max(1, Math.ceil((minuteStart(at).getTime() + 60_000 - at.getTime()) / 1000));
    const period = key.budget_period ?? 'day';
    if (want.budget !== undefined && answer.budget?.refused === true && key.budget_tokens !== null)
      return {
        limit: 'budget_tokens',
        value: key.budget_tokens,
        used: answer.budget.used,
        period,
        reset_s: periodResetSeconds(period, at),
      };
    if (want.tokens !== undefined && answer.tokens?.refused === true && key.tpm !== null)
      return { limit: 'tpm', value: key.tpm, used: answer.tokens.used, reset_s: minuteReset };
    if (want.requests !== undefined && answer.requests?.refused === true && key.rpm !== null)
      return { limit: 'rpm', value: key.rpm, used: answer.requests.used, reset_s: minuteReset };
    return undefined;
  }

  #busyRefusal(state: KeyState, at: Date): Refusal {
    const reset = Math.max(1, Math.ceil((minuteStart(at).getTime() + 60_000 - at.getTime()) / 1000));
    const rpm = state.key.rpm;
    if (rpm !== null) return { limit: 'rpm', value: rpm, used: rpm, reset_s: reset };
    return { limit: 'tpm', value: state.key.tpm ?? 0, used: state.key.tpm ?? 0, reset_s: reset };
  }

  /**
   * Hold `usd` (a call's worst case) against `key`'s dollar budget in this instance's lease: taken locally when
   * the lease has room, else after an exchange that grows the lease. Rejects with the store's error when an
   * exchange is needed and the store fails.
   */
  async reserve(
    key: KeyRecord,
    usd: number,
    ttlMs: number,
    now: () => Date,
  ): Promise<{ reserved: true; hold: LeaseReservation } | { reserved: false; refusal: BudgetRefusal }> {
    const state = this.#stateOf(key);
    const budget = key.budget_usd;
    const nano = Math.ceil(usd * NANO);
    if (budget === null) return { reserved: true, hold: { window: 0, nano: 0 } };
    for (let round = 0; ; round++) {
      const at = now();
      const pool = this.#poolNow(state, 'spend', at);
      if (pool !== undefined && pool.held - pool.pending - pool.reserved >= nano) {
        pool.reserved += nano;
        return { reserved: true, hold: { window: pool.window, nano } };
      }
      const free = pool === undefined ? 0 : Math.max(0, pool.held - pool.pending - pool.reserved);
      const answer = await this.#exchange(
        state,
        at,
        { spend: { slice: Math.floor((budget * NANO) / LEASE_PARTS), need: nano - free } },
        ttlMs,
      );
      const spend = answer.spend;
      if ((spend?.refused === true && spend.granted === 0) || round >= MAX_ROUNDS) {
        const period = key.budget_period ?? 'day';
        const after = now();
        return {
          reserved: false,
          refusal: {
            limit: 'budget_usd',
            value: budget,
            used: (spend?.used ?? 0) / NANO,
            reserve: nano / NANO,
            period,
            reset_s: periodResetSeconds(period, after),
          },
        };
      }
    }
  }

  /**
   * Count what a finished request consumed — its tokens, and its cost in place of its dollar reservation — and
   * send it to the store behind the answer (joined to an exchange already waiting, if any).
   */
  consume(
    key: KeyRecord,
    used: { tokens: number; usd: number; hold?: LeaseReservation | undefined },
    at: Date,
  ): void {
    const state = this.#stateOf(key);
    const tokens = Math.max(0, used.tokens);
    const nano = key.budget_usd === null ? 0 : Math.ceil(Math.max(0, used.usd) * NANO);
    const spend = state.pools.spend;
    if (used.hold !== undefined && spend !== undefined && spend.window === used.hold.window)
      spend.reserved = Math.max(0, spend.reserved - used.hold.nano);
    const countsTokens = key.tpm !== null || key.budget_tokens !== null;
    if ((!countsTokens || tokens === 0) && nano === 0) return;
    const minute = minuteStart(at).toISOString();
    const period = periodStart(key.budget_period ?? 'day', at).toISOString();
    const entry = state.consumed.get(`${minute}|${period}`) ?? { minute, period, tokens: 0, nano: 0 };
    entry.tokens += countsTokens ? tokens : 0;
    entry.nano += nano;
    state.consumed.set(`${minute}|${period}`, entry);
    for (const [kind, amount] of [
      ['tokens', key.tpm === null ? 0 : tokens],
      ['budget', key.budget_tokens === null ? 0 : tokens],
      ['spend', nano],
    ] as const) {
      const pool = state.pools[kind];
      if (amount > 0 && pool !== undefined && pool.window === this.#windowOf(key, kind, at))
        pool.pending += amount;
    }
    this.#sendConsumption(state, at);
  }

  /** Send what was consumed: with the exchange already waiting, else now, else once the pace allows. */
  #sendConsumption(state: KeyState, at: Date): void {
    if (state.queued !== undefined || state.paced !== undefined) return;
    const wait = state.lastStart + CONSUMPTION_PACE_MS - performance.now();
    if (wait <= 0) {
      this.#exchange(state, at, {}).catch(() => undefined);
      return;
    }
    state.paced = setTimeout(() => {
      state.paced = undefined;
      if (state.queued === undefined) this.#exchange(state, at, {}).catch(() => undefined);
    }, wait);
    state.paced.unref?.();
  }

  /**
   * Give back what this instance holds (graceful stop): consumption is sent, unused requests go back to their
   * minute, pooled leases are deleted. Answers how many keys could not be given back (the store failed: their
   * leases come back when they expire).
   */
  async release(now: Date): Promise<number> {
    let failed = 0;
    for (const state of this.#keys.values()) {
      clearTimeout(state.paced);
      state.paced = undefined;
      await state.running.catch(() => undefined);
      const slice = state.requests;
      const unused =
        slice !== undefined && slice.window === minuteStart(now).getTime() && slice.left > 0
          ? { minute: new Date(slice.window).toISOString(), count: slice.left }
          : undefined;
      try {
        await this.#run(state, now, {}, this.#ttlMs, { release: true, unusedRequests: unused });
        state.requests = undefined;
        state.pools = {};
      } catch {
        failed++;
      }
    }
    return failed;
  }

  /**
   * What this instance holds of `key`'s limits and has not used at `at`: requests of the minute, and dollars of
   * the period's lease not held by a call. The store counts them as used; `GET /v1/key` gives them back.
   */
  unused(key: KeyRecord, at: Date): { requests: number; usd: number } {
    const state = this.#keys.get(key.name);
    if (state === undefined) return { requests: 0, usd: 0 };
    const slice = state.requests;
    const requests = slice?.window === minuteStart(at).getTime() ? slice.left : 0;
    const spend = state.pools.spend;
    const free =
      spend?.window === this.#windowOf(key, 'spend', at) && at.getTime() < spend.usableUntil
        ? Math.max(0, spend.held - spend.pending - spend.reserved)
        : 0;
    return { requests, usd: free / NANO };
  }

  /** Join the queued exchange of the key, or queue one behind the running one. */
  #exchange(
    state: KeyState,
    at: Date,
    want: LeaseExchange['want'],
    ttlMs = this.#ttlMs,
  ): Promise<LeaseAnswer> {
    if (state.queued !== undefined) {
      mergeWant(state.queued.want, want);
      return state.queued.done;
    }
    const queued: Queued = { want: { ...want }, done: Promise.resolve({}) };
    const run = () => {
      if (state.queued === queued) state.queued = undefined;
      state.lastStart = performance.now();
      return this.#run(state, at, queued.want, Math.max(this.#ttlMs, ttlMs));
    };
    queued.done = state.running.then(run, run);
    state.running = queued.done.catch(() => undefined);
    state.queued = queued;
    return queued.done;
  }

  /** One exchange: send the consumption so far, ask for `want`, and take the store's answer into the pools. */
  async #run(
    state: KeyState,
    at: Date,
    want: LeaseExchange['want'],
    ttlMs: number,
    extra: Pick<LeaseExchange, 'release' | 'unusedRequests'> = {},
  ): Promise<LeaseAnswer> {
    const consumed = [...state.consumed.values()];
    if (consumed.length === 0 && Object.keys(want).length === 0 && extra.release !== true) return {};
    state.consumed = new Map();
    const { key } = state;
    let answer: LeaseAnswer;
    try {
      this.exchanges++;
      answer = await exchangeLeases(
        this.#store,
        key,
        { instance: this.instance, consumed, want, ttlMs, ...extra },
        at,
      );
    } catch (error) {
      // Kept, merged with what was consumed meanwhile, and sent with the next exchange.
      for (const entry of consumed) {
        const id = `${entry.minute}|${entry.period}`;
        const later = state.consumed.get(id);
        state.consumed.set(
          id,
          later === undefined
            ? entry
            : { ...entry, tokens: entry.tokens + later.tokens, nano: entry.nano + later.nano },
        );
      }
      this.#onError(error, key);
      throw error;
    }
    // What was sent is now in the store's numbers; what was consumed meanwhile is still pending.
    for (const kind of ['tokens', 'budget', 'spend'] as const) {
      const pool = state.pools[kind];
      if (pool === undefined) continue;
      for (const entry of consumed) {
        const window = kind === 'tokens' ? entry.minute : entry.period;
        if (Date.parse(window) !== pool.window) continue;
        const sent =
          kind === 'spend'
            ? entry.nano
            : (kind === 'tokens' ? key.tpm : key.budget_tokens) === null
              ? 0
              : entry.tokens;
        pool.pending = Math.max(0, pool.pending - sent);
        // The store took it off this instance's lease too; an answer for the kind below says the same.
        if (answer[kind] === undefined) pool.held = Math.max(0, pool.held - sent);
      }
    }
    const requests = answer.requests;
    if (requests !== undefined) {
      const window = minuteStart(at).getTime();
      const slice = state.requests?.window === window ? state.requests : { window, left: 0, counted: 0 };
      slice.left += requests.granted;
      slice.counted = requests.used;
      state.requests = slice;
    }
    for (const kind of ['tokens', 'budget', 'spend'] as const) {
      const got = answer[kind];
      if (got === undefined) continue;
      const window = this.#windowOf(key, kind, at);
      const pool = state.pools[kind];
      const kept = pool?.window === window ? pool : undefined;
      state.pools[kind] = {
        window,
        held: got.held,
        pending: kept?.pending ?? 0,
        reserved: kept?.reserved ?? 0,
        usableUntil: got.held > 0 ? at.getTime() + ttlMs - RENEW_MARGIN_MS : (kept?.usableUntil ?? 0),
      };
    }
    return answer;
  }
}
