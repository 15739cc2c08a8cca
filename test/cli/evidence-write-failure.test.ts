import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateResult } from '../../src/contract/validate-result.js';
import { runsAsRoot } from '../helpers/invoke-command.js';
import { spawnCli } from '../helpers/spawn-cli.js';

const NOBODY = 65_534;
const EARLIER = '{"an": "earlier receipt"}\n';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-receipt-'));
  await chmod(dir, 0o755);
  await writeFile(join(dir, 'success.json'), '{"success":true,"message":"Done."}');
  await writeFile(join(dir, 'failure.json'), '{"success":false,"message":"No.","error_code":"nope"}');
  await mkdir(join(dir, 'reports'));
  await writeFile(join(dir, 'reports', 'receipt.json'), EARLIER);
  // A folder the writer may read but not write: creating the temporary file beside the receipt fails.
  await chmod(join(dir, 'reports'), 0o555);
});

afterAll(async () => {
  await chmod(join(dir, 'reports'), 0o755);
  await rm(dir, { recursive: true, force: true });
});

describe('verdict evidence', () => {
  test('keeps an earlier receipt byte for byte and leaves no temporary file when the write fails', async () => {
    // Root ignores folder modes, so as root the child runs as nobody; otherwise the mode alone refuses the write.
    const run = await spawnCli(
      [
        'evidence',
        '--success',
        'success.json',
        '--failure',
        'failure.json',
        '--report',
        'reports/receipt.json',
        '--json',
      ],
      { cwd: dir, ...(runsAsRoot ? { uid: NOBODY, gid: NOBODY } : {}) },
    );
    expect(run.status).toBe(1);
    const document = JSON.parse(run.stdout);
    expect(document).toMatchObject({ success: false, error_code: 'receipt_write_failed' });
    expect(validateResult(document).valid).toBe(true);
    expect(await readFile(join(dir, 'reports', 'receipt.json'), 'utf8')).toBe(EARLIER);
    expect(await readdir(join(dir, 'reports'))).toEqual(['receipt.json']);
  });
});
