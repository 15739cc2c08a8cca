import { VerdictError } from '../../errors.js';
import { toBase64Url } from '../../unified/base64.js';
import type { GatewayStore } from './open-store.js';

/** Budget periods: a calendar day or month (UTC), or the key's whole life. */
export const BUDGET_PERIODS = ['day', 'month', 'total'] as const;

/** One of {@link BUDGET_PERIODS}. */
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/** What a key may do; `null` is no limit. JSON members as `keys show --json` prints them. */
export interface KeyLimits {
  /** Requests admitted per minute. */
  rpm: number | null;
  /** Tokens (input + output) per minute; a request is admitted while the minute's count is under it. */
  tpm: number | null;
  /** Tokens per budget period; a request is admitted while the period's count is under it. */
  budget_tokens: number | null;
  /**
   * Dollars per budget period, reserved before each call and settled at its cost (docs/gateway.md, "Budgets in
   * dollars"); a request is admitted while what is spent and reserved leaves room for its worst case.
   */
  budget_usd: number | null;
  /** The period of both budgets (`day` when a budget is set without one). */
  budget_period: BudgetPeriod | null;
  /** Route names the key may call (`text`, `images`…), globs allowed; `null` is every route. */
  routes: string[] | null;
  /** `provider:model` globs the key may call (`openai:*`); `null` is every model. */
  models: string[] | null;
  /** When the key stops working (ISO 8601). */
  expires_at: string | null;
}

/** A stored key without its secret: the hash stays in the store, `prefix` helps people tell keys apart. */
export interface KeyRecord extends KeyLimits {
  /** The key's name, unique, shown in usage records. */
  name: string;
  /** The first characters of the key (`vk_AbC1x…`). */
  prefix: string;
  /** When the key was created (ISO 8601). */
  created_at: string;
  /** When the key was revoked (ISO 8601), or `null`. */
  revoked_at: string | null;
}

/** Changes to a key's limits: a member given replaces the limit, `null` removes it. */
export type KeyChanges = Partial<KeyLimits>;

/** Names of stored keys; `static` and `admin` name the keys that come from the environment. */
export const KEY_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const RESERVED_NAMES = new Set(['static', 'admin']);
const KEY_PREFIX = 'vk_';
const GLOB_PATTERN = /^[A-Za-z0-9*._:/@-]{1,200}$/;

/** A problem with key input, by member. */
export interface KeyProblem {
  /** The member (`rpm`, `models`…). */
  field: string;
  /** What is wrong, in words. */
  message: string;
}

/** Check a name and limits; answers every problem (none for good input). */
export function checkKeyInput(name: string | undefined, changes: KeyChanges): KeyProblem[] {
  const problems: KeyProblem[] = [];
  if (name !== undefined) {
    if (!KEY_NAME_PATTERN.test(name)) {
      problems.push({
        field: 'name',
        message: 'A key name is 1 to 64 characters: lower-case letters, digits, ".", "_" and "-".',
      });
    } else if (RESERVED_NAMES.has(name)) {
      problems.push({
        field: 'name',
        message: `"${name}" names the keys from the environment; pick another.`,
      });
    }
  }
  for (const field of ['rpm', 'tpm', 'budget_tokens'] as const) {
    const value = changes[field];
    if (value !== undefined && value !== null && !(Number.isSafeInteger(value) && value > 0)) {
      problems.push({ field, message: `${field} must be a positive whole number.` });
    }
  }
  const usd = changes.budget_usd;
  if (usd !== undefined && usd !== null && !(Number.isFinite(usd) && usd > 0 && usd <= 1e9)) {
    problems.push({
      field: 'budget_usd',
      message: 'budget_usd must be a number of dollars above 0, at most 1e9.',
    });
  }
  if (
    changes.budget_period !== undefined &&
    changes.budget_period !== null &&
    !BUDGET_PERIODS.includes(changes.budget_period)
  ) {
    problems.push({
      field: 'budget_period',
      message: `budget_period is one of ${BUDGET_PERIODS.join(', ')}.`,
    });
  }
  for (const field of ['routes', 'models'] as const) {
    const globs = changes[field];
    if (globs === undefined || globs === null) continue;
    if (globs.length === 0 || globs.length > 64 || !globs.every((glob) => GLOB_PATTERN.test(glob))) {
      problems.push({
        field,
        message: `${field} is a list of 1 to 64 patterns of letters, digits, "*", ".", "_", ":", "/", "@" and "-".`,
      });
    }
  }
  if (changes.expires_at !== undefined && changes.expires_at !== null) {
    if (Number.isNaN(Date.parse(changes.expires_at))) {
      problems.push({
        field: 'expires_at',
        message: 'expires_at must be a date such as 2027-01-31 or an ISO 8601 time.',
      });
    }
  }
  return problems;
}

/** A new key: `vk_` and 256 random bits. */
export function generateKey(): string {
  return KEY_PREFIX + toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

/** True for a string shaped like a stored key (`vk_…`). */
export function looksLikeStoredKey(token: string): boolean {
  return token.startsWith(KEY_PREFIX) && token.length >= 20 && token.length <= 128;
}

/**
 * The SHA-256 of a key, hex: what the store keeps. A key carries 256 random bits, so a fast hash is enough;
 * looking it up by hash leaks nothing a timing attack could use.
 */
export async function hashKey(key: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function isoOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value as string | Date).toISOString();
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** A row of `verdict_keys` as a record (pg answers bigint as text, PGlite as a number: both become numbers). */
export function toKeyRecord(row: Record<string, unknown>): KeyRecord {
  return {
    name: String(row.name),
    prefix: String(row.prefix),
    rpm: numberOrNull(row.rpm),
    tpm: numberOrNull(row.tpm),
    budget_tokens: numberOrNull(row.budget_tokens),
    budget_usd: numberOrNull(row.budget_usd),
    budget_period: (row.budget_period as BudgetPeriod | null) ?? null,
    routes: (row.routes as string[] | null) ?? null,
    models: (row.models as string[] | null) ?? null,
    expires_at: isoOrNull(row.expires_at),
    created_at: isoOrNull(row.created_at) ?? '',
    revoked_at: isoOrNull(row.revoked_at),
  };
}

const KEY_COLUMNS =
  'name, prefix, rpm, tpm, budget_tokens, budget_usd, budget_period, routes, models, expires_at, created_at, revoked_at';

function refuse(problems: KeyProblem[]): never {
  throw new VerdictError('invalid_argument', problems.map((problem) => problem.message).join(' '));
}

function jsonOrNull(value: string[] | null | undefined): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/**
 * Create a key: answers the key itself (shown once; the store keeps its hash) and its record. Throws a
 * `VerdictError` (`invalid_argument`) for bad input or a name already taken.
 * @example
 * const { key } = await createKey(store, 'team-a', { rpm: 60, budget_tokens: 1_000_000, budget_period: 'month' });
 */
export async function createKey(
  store: GatewayStore,
  name: string,
  limits: KeyChanges = {},
): Promise<{ key: string; record: KeyRecord }> {
  const problems = checkKeyInput(name, limits);
  if (problems.length > 0) refuse(problems);
  const key = generateKey();
  const period =
    limits.budget_period ?? (limits.budget_tokens == null && limits.budget_usd == null ? null : 'day');
  const rows = await store.query(
    `INSERT INTO verdict_keys (name, key_hash, prefix, rpm, tpm, budget_tokens, budget_period, routes, models, expires_at, budget_usd)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11)
     ON CONFLICT (name) DO NOTHING
     RETURNING ${KEY_COLUMNS}`,
    [
      name,
      await hashKey(key),
      `${key.slice(0, 8)}…`,
      limits.rpm ?? null,
      limits.tpm ?? null,
      limits.budget_tokens ?? null,
      period,
      jsonOrNull(limits.routes),
      jsonOrNull(limits.models),
      limits.expires_at == null ? null : new Date(limits.expires_at).toISOString(),
      limits.budget_usd ?? null,
    ],
  );
  const row = rows[0];
  if (row === undefined)
    refuse([
      { field: 'name', message: `A key named "${name}" exists already (revoked keys keep their name).` },
    ]);
  return { key, record: toKeyRecord(row) };
}

/** Every stored key, revoked ones included, by name; no secrets. */
export async function listKeys(store: GatewayStore): Promise<KeyRecord[]> {
  const rows = await store.query(`SELECT ${KEY_COLUMNS} FROM verdict_keys ORDER BY name`);
  return rows.map(toKeyRecord);
}

/** One key by name, or `undefined`. */
export async function findKeyByName(store: GatewayStore, name: string): Promise<KeyRecord | undefined> {
  const rows = await store.query(`SELECT ${KEY_COLUMNS} FROM verdict_keys WHERE name = $1`, [name]);
  return rows[0] === undefined ? undefined : toKeyRecord(rows[0]);
}

/** The stored key a client presented, found by its hash, or `undefined`. */
export async function findKeyBySecret(store: GatewayStore, key: string): Promise<KeyRecord | undefined> {
  const rows = await store.query(`SELECT ${KEY_COLUMNS} FROM verdict_keys WHERE key_hash = $1`, [
    await hashKey(key),
  ]);
  return rows[0] === undefined ? undefined : toKeyRecord(rows[0]);
}

/** Change a key's limits; `undefined` when there is no such key. Throws a `VerdictError` for bad input. */
export async function updateKey(
  store: GatewayStore,
  name: string,
  changes: KeyChanges,
): Promise<KeyRecord | undefined> {
  const problems = checkKeyInput(undefined, changes);
  if (problems.length > 0) refuse(problems);
  const given = (field: keyof KeyChanges) => changes[field] !== undefined;
  const rows = await store.query(
    `UPDATE verdict_keys SET
       rpm = CASE WHEN $2 THEN $3::integer ELSE rpm END,
       tpm = CASE WHEN $4 THEN $5::bigint ELSE tpm END,
       budget_tokens = CASE WHEN $6 THEN $7::bigint ELSE budget_tokens END,
       budget_usd = CASE WHEN $16 THEN $17::float8 ELSE budget_usd END,
       budget_period = CASE WHEN $8 THEN $9::text WHEN ($7::bigint IS NOT NULL OR $17::float8 IS NOT NULL) AND budget_period IS NULL THEN 'day' ELSE budget_period END,
       routes = CASE WHEN $10 THEN $11::jsonb ELSE routes END,
       models = CASE WHEN $12 THEN $13::jsonb ELSE models END,
       expires_at = CASE WHEN $14 THEN $15::timestamptz ELSE expires_at END
     WHERE name = $1
     RETURNING ${KEY_COLUMNS}`,
    [
      name,
      given('rpm'),
      changes.rpm ?? null,
      given('tpm'),
      changes.tpm ?? null,
      given('budget_tokens'),
      changes.budget_tokens ?? null,
      given('budget_period'),
      changes.budget_period ?? null,
      given('routes'),
      jsonOrNull(changes.routes),
      given('models'),
      jsonOrNull(changes.models),
      given('expires_at'),
      changes.expires_at == null ? null : new Date(changes.expires_at).toISOString(),
      given('budget_usd'),
      changes.budget_usd ?? null,
    ],
  );
  return rows[0] === undefined ? undefined : toKeyRecord(rows[0]);
}

/** Revoke a key: refused from the next request on, on every instance. `undefined` when there is no such key. */
export async function revokeKey(store: GatewayStore, name: string): Promise<KeyRecord | undefined> {
  const rows = await store.query(
    `UPDATE verdict_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE name = $1 RETURNING ${KEY_COLUMNS}`,
    [name],
  );
  return rows[0] === undefined ? undefined : toKeyRecord(rows[0]);
}
