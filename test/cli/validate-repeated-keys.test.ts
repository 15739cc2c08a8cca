import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';

let dir: string;

/** A result document whose root repeats the member `k` `count` times: 1 MB for 160,000. */
const repeatedKeysDocument = (count: number) => `{"success":true,"message":"ok"${',"k":1'.repeat(count)}}`;
const sizes = { few: repeatedKeysDocument(20_000).length, many: repeatedKeysDocument(160_000).length };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-repeated-keys-'));
  writeFileSync(join(dir, 'few.json'), repeatedKeysDocument(20_000));
  writeFileSync(join(dir, 'many.json'), repeatedKeysDocument(160_000));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(file: string) {
  const io = memoryIo({ cwd: dir });
  const started = process.cpuUsage();
  const status = await run(['validate', file, '--json'], io);
  const used = process.cpuUsage(started);
  return { status, doc: JSON.parse(io.stdout.text()), cpu: used.user + used.system };
}

describe('verdict validate on a 1 MB document with repeated member names', () => {
  test('reports the repeat once, at the same cost per byte with 160,000 repeats as with 20,000', async () => {
    const best = { few: Number.POSITIVE_INFINITY, many: Number.POSITIVE_INFINITY };
    // Interleaved rounds, fastest kept: a busy moment of the machine slows one run, not one document.
    for (let round = 0; round < 3; round++) {
      for (const name of ['few', 'many'] as const) {
        const { status, doc, cpu } = await validate(`${name}.json`);
        expect(status).toBe(1);
        expect(doc.error_code).toBe('contract_violation');
        expect(doc.details.inputs[0].violations).toEqual([
          expect.objectContaining({ code: 'duplicate_member', path: '' }),
        ]);
        best[name] = Math.min(best[name], cpu / sizes[name]);
      }
    }
    // A reader linear in the input costs the same per byte; one quadratic in the members cost 8 times as much.
    expect(best.many / best.few).toBeLessThan(2.5);
  });
});

describe('verdict validate --contract unified', () => {
  test('names the unified output schema it checked against, though a cold start loads no unified module', async () => {
    const { UNIFIED_OUTPUT_SCHEMA_URL } = await import('../../src/unified/index.js');
    writeFileSync(join(dir, 'envelope.json'), '{"success":true}');
    const io = memoryIo({ cwd: dir });
    expect(await run(['validate', '--contract', 'unified', 'envelope.json', '--json'], io)).toBe(1);
    expect(JSON.parse(io.stdout.text()).details.contract).toBe(UNIFIED_OUTPUT_SCHEMA_URL);
  });
});
