import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ESM build script without type declarations.
import { ACTION_BUNDLE, buildActionBundle } from '../../scripts/build-action.mjs';

describe('action bundle', () => {
  test('is the committed build of src/action (run npm run build:action when this fails)', async () => {
    const fresh: string = await buildActionBundle();
    expect(readFileSync(ACTION_BUNDLE as string, 'utf8') === fresh, 'action/dist/index.mjs is stale').toBe(
      true,
    );
  });

  test('is what action.yml runs on the node24 runtime', () => {
    const manifest = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8');
    expect(manifest).toMatch(/^\s+using: node24$/m);
    expect(manifest).toMatch(/^\s+main: action\/dist\/index\.mjs$/m);
  });
});

describe('action/dist/index.mjs', () => {
  test('runs as the runner starts it and exits 0 for a conforming pair, 1 for a failing one', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'verdict-bundle-'));
    try {
      cpSync(join(import.meta.dirname, '../fixtures/conformance'), workspace, { recursive: true });
      const start = (success: string) =>
        spawnSync(process.execPath, [ACTION_BUNDLE as string], {
          env: {
            GITHUB_WORKSPACE: workspace,
            INPUT_SUCCESS: success,
            INPUT_FAILURE: 'core/valid/failure-error-code.json',
          },
          encoding: 'utf8',
        });
      const passing = start('core/valid/success-minimal.json');
      expect(passing.status, passing.stderr).toBe(0);
      expect(JSON.parse(passing.stdout).success).toBe(true);
      expect(start('core/invalid/success_with_error.json').status).toBe(1);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
