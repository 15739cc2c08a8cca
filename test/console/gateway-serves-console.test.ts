import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';
import { CONSOLE_DIR } from './browser.js';

describe('verdict gateway', () => {
  test('serves the built web console at / by default, and envelopes everywhere under /v1/', async () => {
    const controller = new AbortController();
    const io = memoryIo({ env: {}, signal: controller.signal });
    const exit = run(['gateway', '--port', '0'], io);
    let url: string | undefined;
    // Wait for the address (loading the AI SDK takes a while on a busy machine).
    await expect
      .poll(
        () => {
          url = /serving on (http:\/\/[^ ]+)/.exec(io.stderr.text())?.[1];
          return url !== undefined || io.stderr.text().includes('could not');
        },
        { timeout: 25_000 },
      )
      .toBe(true);
    try {
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('<title>verdict console</title>');
      const script = readdirSync(join(CONSOLE_DIR, 'assets')).find((name) => name.endsWith('.js'));
      const asset = await fetch(`${url}/assets/${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      const missing = await fetch(`${url}/v1/nothing-here`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    } finally {
      controller.abort();
    }
    expect(await exit).toBe(0);
  });
});
