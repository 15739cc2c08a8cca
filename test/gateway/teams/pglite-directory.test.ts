import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  createKey,
  findKeyByName,
  MIGRATIONS,
  migrateStore,
  openStore,
} from '../../../src/gateway/store/index.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

// PGlite creates its database in seconds, tens on a busy machine: one generous deadline for the whole test.
describe('a PGlite store directory', () => {
  test('keeps keys across opens and refuses a second opener while it is open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verdict-pglite-'));
    dirs.push(dir);
    const store = await openStore(join(dir, 'gateway'));
    expect((await migrateStore(store)).applied).toEqual(MIGRATIONS.map((migration) => migration.version));
    const { key } = await createKey(store, 'team-a', { rpm: 5 });
    expect(await readFile(join(dir, 'gateway', 'verdict-gateway.lock'), 'utf8')).toBe(String(process.pid));
    await expect(openStore(join(dir, 'gateway'))).rejects.toThrow(
      /is open already in this process; PGlite serves one process/,
    );
    await store.close();
    const again = await openStore(join(dir, 'gateway'));
    expect((await migrateStore(again)).applied).toEqual([]);
    expect(await findKeyByName(again, 'team-a')).toMatchObject({ name: 'team-a', rpm: 5 });
    const everything = JSON.stringify(await again.query('SELECT * FROM verdict_keys'));
    expect(everything).not.toContain(key);
    await again.close();
  }, 300_000);
});
