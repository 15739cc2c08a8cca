import { afterAll, beforeAll } from 'vitest';
import { type GatewayStore, migrateStore, openStore } from '../../../src/gateway/store/index.js';
import { startPostgres, type TestPostgres } from '../../helpers/embedded-postgres.mjs';

/** The stores of three gateway instances: their own pools on one embedded PostgreSQL, and one PGlite store. */
export interface ThreeInstances {
  /** Three stores per kind, migrated; the PGlite one is the same store three times. */
  stores: Record<'pglite' | 'postgres', GatewayStore[]>;
  /** The embedded PostgreSQL's URL, for the command line. */
  postgresUrl(): string;
}

/** Starts the stores before the file's tests and closes them after. */
export function useThreeInstances(): ThreeInstances {
  let postgres: TestPostgres | undefined;
  const stores: ThreeInstances['stores'] = { pglite: [], postgres: [] };
  beforeAll(async () => {
    postgres = await startPostgres();
    const pglite = await openStore(':memory:');
    await migrateStore(pglite);
    stores.pglite = [pglite, pglite, pglite];
    for (let index = 0; index < 3; index++)
      stores.postgres.push(
        await openStore(postgres.url, { queryTimeoutMs: 10_000, onError: () => undefined }),
      );
    await Promise.all(stores.postgres.map((store) => migrateStore(store)));
  }, 180_000);
  afterAll(async () => {
    for (const store of new Set([...stores.pglite, ...stores.postgres]))
      await store.close().catch(() => undefined);
    await postgres?.close();
  }, 60_000);
  return {
    stores,
    postgresUrl: () => {
      if (postgres === undefined) throw new Error('PostgreSQL has not started.');
      return postgres.url;
    },
  };
}
