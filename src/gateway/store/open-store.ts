/**
 * The gateway's store: PostgreSQL through `pg` (a pool, shared by every instance of a deployment) or PGlite (an
 * embedded PostgreSQL compiled to WASM, for one instance). Both run the same SQL; both packages are optional
 * peers, loaded only when a store is opened (docs/gateway.md, "Teams").
 */
import { VerdictError } from '../../errors.js';
import { StoreError } from './store-error.js';

export { StoreError };

/** Runs one parameterised statement and answers its rows. */
export type QueryFn = <Row = Record<string, unknown>>(
  sql: string,
  params?: readonly unknown[],
) => Promise<Row[]>;

/** An open store: parameterised queries with a deadline each, transactions, and closing. */
export interface GatewayStore {
  /** `pglite` (embedded, one instance) or `postgres` (a server shared by instances). */
  readonly kind: 'pglite' | 'postgres';
  /** Where the store lives: a directory, or the server's URL without its password. */
  readonly location: string;
  /** Run one statement; rejects with a `StoreError` when the store fails or the deadline passes. */
  readonly query: QueryFn;
  /** Run statements in one transaction on one connection (migrations). */
  transaction<T>(run: (query: QueryFn) => Promise<T>): Promise<T>;
  /** Close the pool or the embedded database. */
  close(): Promise<void>;
}

/** How to open a store. */
export interface StoreOptions {
  /** Deadline of each statement, in milliseconds (default 2000): a store that does not answer is a failure. */
  queryTimeoutMs?: number | undefined;
  /** Connections of the `pg` pool (default 10). */
  poolSize?: number | undefined;
  /** Told about errors of idle pool connections (a server restart), which would otherwise be unhandled. */
  onError?: ((error: Error) => void) | undefined;
}

const DEFAULT_QUERY_TIMEOUT_MS = 2000;

/** True for a location that names a PostgreSQL server rather than a PGlite directory. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location);
}

/** A PostgreSQL URL without its password, safe for logs and answers. */
export function redactStoreUrl(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password !== '') url.password = '***';
    return url.href;
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreError('store_timeout', `The store did not answer within ${ms} ms.`)),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function asStoreError(error: unknown): Error {
  if (error instanceof StoreError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreError('store_unreachable', `The store failed: ${reason}`, { cause: error });
}

async function importPeer<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new VerdictError(
      'not_supported',
      `The gateway's store needs the package ${name}: npm install ${name}`,
      { cause: error },
    );
  }
}

async function openPostgres(url: string, options: StoreOptions, timeoutMs: number): Promise<GatewayStore> {
  const { default: pg } = await importPeer('pg', () => import('pg'));
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    idleTimeoutMillis: 10_000,
  });
  // An idle connection the server ends (a restart) emits `error` on the pool; unhandled, it would end the process.
  pool.on('error', (error) => options.onError?.(error));
  const run =
    (client: { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> }): QueryFn =>
    async <Row>(sql: string, params: readonly unknown[] = []) => {
      try {
        const result = await withDeadline(client.query(sql, [...params]), timeoutMs);
        return result.rows as Row[];
      } catch (error) {
        throw asStoreError(error);
      }
    };
  return {
    kind: 'postgres',
    location: redactStoreUrl(url),
    query: run(pool),
    async transaction(work) {
      let client: import('pg').PoolClient;
      try {
        client = await withDeadline<import('pg').PoolClient>(pool.connect(), timeoutMs);
      } catch (error) {
        throw asStoreError(error);
      }
      const query = run(client);
      try {
        await query('BEGIN');
        const value = await work(query);
        await query('COMMIT');
        return value;
      } catch (error) {
        await query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(dir: string, timeoutMs: number): Promise<GatewayStore> {
  const { PGlite } = await importPeer('@electric-sql/pglite', () => import('@electric-sql/pglite'));
  let db: InstanceType<typeof PGlite>;
  try {
    db = await PGlite.create(dir === ':memory:' ? undefined : dir);
  } catch (error) {
    throw asStoreError(error);
  }
  const run =
    (target: { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> }): QueryFn =>
    async <Row>(sql: string, params: readonly unknown[] = []) => {
      try {
        const result = await withDeadline(target.query(sql, [...params]), timeoutMs);
        return result.rows as Row[];
      } catch (error) {
        throw asStoreError(error);
      }
    };
  return {
    kind: 'pglite',
    location: dir,
    query: run(db),
    transaction: (work) => db.transaction((tx) => work(run(tx))),
    close: () => db.close(),
  };
}

/**
 * Open the store at `location`: a `postgres://` URL connects a `pg` pool, anything else is a PGlite directory
 * (created when missing; `:memory:` keeps it in memory). Call {@link migrateStore} before use.
 * @example
 * const store = await openStore('postgres://verdict@db.internal/verdict');
 * await migrateStore(store);
 */
export async function openStore(location: string, options: StoreOptions = {}): Promise<GatewayStore> {
  const timeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  if (isPostgresUrl(location)) return openPostgres(location, options, timeoutMs);
  if (location === ':memory:') return openPglite(location, timeoutMs);
  // Loaded here: the store module stays free of node:fs for runtimes that only reach a PostgreSQL server.
  const { lockDirectory } = await import('./lock-directory.js');
  const release = await lockDirectory(location);
  try {
    const store = await openPglite(location, timeoutMs);
    return { ...store, close: () => store.close().finally(release) };
  } catch (error) {
    await release();
    throw error;
  }
}
