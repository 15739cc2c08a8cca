import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, test } from 'vitest';
import { externalImportsByFile } from '../helpers/import-graph.js';
import { ROOT } from '../support/ensure-build.js';

/** The gzipped browser bundle of verdict/client stays small: fetch, the envelope check and nothing else. */
const BUDGET_GZIP_BYTES = 8 * 1024;

describe('verdict/client', () => {
  test('its built modules import nothing outside verdict: no node: module, no zod, no hono', () => {
    const reached = externalImportsByFile(join(ROOT, 'dist', 'client', 'index.js'));
    expect([...reached.values()].flat()).toEqual([]);
    expect(reached.size).toBeGreaterThan(3);
  });

  test(`bundles for browsers under ${BUDGET_GZIP_BYTES} bytes gzipped`, async () => {
    const result = await build({
      entryPoints: [join(ROOT, 'src', 'client', 'index.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules'))).toEqual([]);
    const gzipped = gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).byteLength;
    expect(gzipped).toBeLessThan(BUDGET_GZIP_BYTES);
  });
});
