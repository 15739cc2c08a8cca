/**
 * The admin's view of the usage record (docs/gateway.md, "Teams"): `GET /v1/usage` (totals and time series),
 * `GET /v1/usage/requests` (pages of records), and `GET /v1/key`, the calling key's own limits. The teams
 * middleware has already checked the key (the admin key for `/v1/usage*`).
 */

import type { Context, Hono } from 'hono';
import { hasControlCharacter } from '../basics/plain-id.js';
import { ROUTE_TABLE } from '../basics/route-table.js';
import { type GatewayEnv, respond, systemFailure, systemSuccess } from '../pipeline/gateway-env.js';
import { formatUsd } from '../spend/cost-header.js';
import { readSpend } from '../store/budgets.js';
import type { KeyRecord } from '../store/keys.js';
import { readCounts } from '../store/limits.js';
import type { GatewayStore } from '../store/open-store.js';
import {
  decodeCursor,
  queryRequests,
  queryUsage,
  USAGE_BUCKETS,
  USAGE_GROUPS,
  type UsageBucket,
  type UsageGroup,
} from '../store/query-usage.js';

/** What the usage routes need from the teams part. */
export interface UsageRouteContext {
  /** The open store. */
  store: GatewayStore;
  /** The clock. */
  now: () => Date;
  /** The answer when the store fails. */
  storeDown: (c: Context<GatewayEnv>, error: unknown) => Response;
  /** What this instance leased of a key's limits and has not used: the store counts it as used. */
  unused?: ((key: KeyRecord, at: Date) => { requests: number; usd: number }) | undefined;
}

function parseTime(value: string | undefined): Date | undefined | 'invalid' {
  if (value === undefined || value === '') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? 'invalid' : new Date(time);
}

/** Register `GET /v1/usage`, `GET /v1/usage/requests` and `GET /v1/key`. */
export function registerUsageRoutes(app: Hono<GatewayEnv>, context: UsageRouteContext): void {
  const { store, now, storeDown } = context;
  app.get(ROUTE_TABLE.usage.path, async (c) => {
    const traceId = c.get('traceId');
    const query = c.req.query();
    const to = parseTime(query.to) ?? now();
    const from = parseTime(query.from) ?? (to instanceof Date ? new Date(to.getTime() - 86_400_000) : to);
    const groupBy = (query.group_by ?? 'key') as UsageGroup;
    const bucket = (query.bucket ?? 'hour') as UsageBucket;
    const problems: string[] = [];
    if (from === 'invalid' || to === 'invalid') problems.push('from and to are ISO 8601 times.');
    if (!USAGE_GROUPS.includes(groupBy)) problems.push(`group_by is one of ${USAGE_GROUPS.join(', ')}.`);
    if (!USAGE_BUCKETS.includes(bucket)) problems.push(`bucket is one of ${USAGE_BUCKETS.join(', ')}.`);
    if (problems.length > 0 || !(from instanceof Date) || !(to instanceof Date)) {
      return respond(c, systemFailure('VALIDATION_ERROR', problems.join(' '), traceId, { problems }));
    }
    if (from.getTime() >= to.getTime()) {
      return respond(c, systemFailure('VALIDATION_ERROR', 'from must be before to.', traceId, { from, to }));
    }
    try {
      const report = await queryUsage(store, { from, to, groupBy, bucket });
      const { totals } = report;
      return respond(
        c,
        systemSuccess(
          `${totals.requests} request(s), ${totals.errors} failed, ${totals.input_tokens + totals.output_tokens} token(s), $${formatUsd(totals.cost_usd)}${totals.unpriced > 0 ? ` and ${totals.unpriced} request(s) without a price` : ''}${totals.cost_saved_usd > 0 ? `, $${formatUsd(totals.cost_saved_usd)} saved by the cache` : ''} from ${report.from} to ${report.to}.`,
          traceId,
          { usage: report },
        ),
      );
    } catch (error) {
      return storeDown(c, error);
    }
  });
  app.get(ROUTE_TABLE.usage_requests.path, async (c) => {
    const traceId = c.get('traceId');
    const query = c.req.query();
    const from = parseTime(query.from);
    const to = parseTime(query.to);
    const limit = query.limit === undefined ? 50 : Number(query.limit);
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const problems: string[] = [];
    if (from === 'invalid' || to === 'invalid') problems.push('from and to are ISO 8601 times.');
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      problems.push('limit is a whole number from 1 to 500.');
    if (query.cursor !== undefined && cursor === undefined)
      problems.push('cursor is the next_cursor of a page.');
    for (const name of ['key', 'code', 'trace_id'] as const) {
      const value = query[name] ?? '';
      if (value.length > 200) problems.push(`${name} is at most 200 characters.`);
      // PostgreSQL refuses a NUL in text: a filter holding one is the caller's mistake, not a store failure.
      else if (hasControlCharacter(value)) problems.push(`${name} must not hold control characters.`);
    }
    if (problems.length > 0 || from === 'invalid' || to === 'invalid') {
      return respond(c, systemFailure('VALIDATION_ERROR', problems.join(' '), traceId, { problems }));
    }
    try {
      const page = await queryRequests(
        store,
        { key: query.key, code: query.code, trace_id: query.trace_id, from, to },
        { limit, cursor },
      );
      return respond(
        c,
        systemSuccess(`${page.requests.length} request record(s).`, traceId, {
          requests: page.requests,
          next_cursor: page.next_cursor,
        }),
      );
    } catch (error) {
      return storeDown(c, error);
    }
  });
  // The calling key's limits and what is left of them now: what the console's Try view shows.
  app.get(ROUTE_TABLE.key.path, async (c) => {
    const traceId = c.get('traceId');
    const caller = c.get('caller');
    const key = caller?.key;
    if (caller === undefined || key === undefined) {
      return respond(
        c,
        systemSuccess(`The ${caller?.name ?? 'static'} key has no limits.`, traceId, {
          key: { name: caller?.name ?? 'static', kind: caller?.kind ?? 'static', limits: null },
        }),
      );
    }
    try {
      const at = now();
      const [stored, held] = await Promise.all([readCounts(store, key, at), readSpend(store, key, at)]);
      // This instance's unused leases are not used: the key may still spend them (docs/gateway.md, "Leases").
      const unused = context.unused?.(key, at) ?? { requests: 0, usd: 0 };
      const counts = { ...stored, minute_requests: Math.max(0, stored.minute_requests - unused.requests) };
      const spend = { ...held, reserved: Math.max(0, held.reserved - unused.usd) };
      const used = { ...counts, period_usd: spend.spent, reserved_usd: spend.reserved };
      const left = (limit: number | null, count: number) =>
        limit === null ? null : Math.max(0, limit - count);
      return respond(
        c,
        systemSuccess(`Limits of the key "${key.name}".`, traceId, {
          key: {
            name: key.name,
            kind: 'stored',
            limits: key,
            used,
            remaining: {
              rpm: left(key.rpm, used.minute_requests),
              tpm: left(key.tpm, used.minute_tokens),
              budget_tokens: left(key.budget_tokens, used.period_tokens),
              // Nanodollar sums, shown to twelve decimals like every cost.
              budget_usd:
                key.budget_usd === null
                  ? null
                  : Math.round(Math.max(0, key.budget_usd - spend.spent - spend.reserved) * 1e12) / 1e12,
            },
          },
        }),
      );
    } catch (error) {
      return storeDown(c, error);
    }
  });
}
