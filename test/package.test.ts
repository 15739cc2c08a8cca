import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { RESULT_CONTRACT_SCHEMA } from '../src/contract/contract-schema.js';
import { walkImports } from './helpers/import-graph.js';
import { BUILT_CLI, ROOT } from './support/ensure-build.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines?: { node?: string };
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
};

describe('the published package', () => {
  test('npm pack holds only built code, declarations, schemas, README, LICENSE and package.json', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(pack.status, pack.stderr).toBe(0);
    const [listing] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
    const paths = listing.files.map((f) => f.path);
    const allowed = (path: string) =>
      /^dist\/.+(?<!\.test)(?<!\.test-d)(\.js|\.d\.ts)$/.test(path) ||
      /^schemas\/[^/]+\.json$/.test(path) ||
      // The console page the gateway serves at `/` (docs/console.md).
      /^dist\/console\/(index\.html|assets\/[\w-]+\.(js|css))$/.test(path) ||
      ['README.md', 'LICENSE', 'package.json'].includes(path);
    expect(paths.filter((path) => !allowed(path))).toEqual([]);
    const required = [
      'package.json',
      'LICENSE',
      'schemas/result-contract-v1.schema.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/console/index.html',
    ];
    if (existsSync(join(ROOT, 'README.md'))) required.push('README.md');
    expect(paths).toEqual(expect.arrayContaining(required));
  });

  test('npm pack ships no module that the exports map and the CLI entry cannot reach', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const [listing] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
    const packed = listing.files.map((f) => f.path).filter((path) => path.endsWith('.js'));
    const entries = [
      ...Object.values(pkg.exports ?? {}).flatMap((target) =>
        typeof target === 'object' && target !== null ? [(target as { default?: string }).default ?? ''] : [],
      ),
      pkg.bin?.verdict ?? '',
    ].filter((target) => target.endsWith('.js'));
    const reachable = new Set(
      entries.flatMap((entry) =>
        walkImports(join(ROOT, entry)).files.map((file) => relative(ROOT, join(ROOT, dirname(entry), file))),
      ),
    );
    // The web console is a page `verdict gateway` serves from dist/console: its modules are reached from the
    // scripts its index.html names, in a browser.
    const page = join(ROOT, 'dist', 'console', 'index.html');
    const scripts = existsSync(page)
      ? [...readFileSync(page, 'utf8').matchAll(/<script[^>]*\ssrc="\.\/([^"]+\.js)"/g)].map(
          (match) => `dist/console/${match[1]}`,
        )
      : [];
    for (const script of scripts) {
      for (const file of walkImports(join(ROOT, script)).files)
        reachable.add(relative(ROOT, join(ROOT, dirname(script), file)));
    }
    expect(reachable).toContain('dist/cli/commands/mcp.js');
    expect(packed.filter((path) => !reachable.has(path))).toEqual([]);
    expect(packed.filter((path) => path.startsWith('dist/action/'))).toEqual([]);
  });

  test('the root export imports no node: module and no package, however deep', () => {
    const graph = walkImports(join(ROOT, 'dist', 'index.js'));
    expect(graph.files).toContain('contract/validate-result.js');
    expect(graph.files).toContain('json/read-json.js');
    expect(graph.external).toEqual([]);
  });

  test('the schema file equals RESULT_CONTRACT_SCHEMA', () => {
    const file = JSON.parse(readFileSync(join(ROOT, 'schemas', 'result-contract-v1.schema.json'), 'utf8'));
    expect(file).toEqual(RESULT_CONTRACT_SCHEMA);
  });

  test('package.json asks for Node >= 20', () => {
    const range = pkg.engines?.node ?? '';
    const floor = /^>=\s*(\d+)(?:\.\d+){0,2}$/.exec(range.trim());
    expect(floor, `engines.node is ${JSON.stringify(range)}`).not.toBeNull();
    expect(Number(floor?.[1])).toBeGreaterThanOrEqual(20);
  });

  test('every conditional export names types first', () => {
    const conditionMaps: [string, Record<string, unknown>][] = [];
    const collect = (path: string, value: unknown) => {
      if (typeof value !== 'object' || value === null) return;
      const keys = Object.keys(value);
      if (keys.every((key) => key.startsWith('.'))) {
        for (const key of keys) collect(key, (value as Record<string, unknown>)[key]);
        return;
      }
      conditionMaps.push([path, value as Record<string, unknown>]);
      for (const key of keys) collect(`${path} ${key}`, (value as Record<string, unknown>)[key]);
    };
    collect('.', pkg.exports);
    expect(conditionMaps.map(([path]) => path)).toContain('.');
    for (const [path, conditions] of conditionMaps) {
      expect(Object.keys(conditions)[0], `exports ${path}`).toBe('types');
    }
  });

  test('bin.verdict is the built CLI with a node shebang', () => {
    expect(pkg.bin?.verdict).toBe('dist/cli/main.js');
    expect(resolve(ROOT, pkg.bin?.verdict ?? '')).toBe(BUILT_CLI);
    expect(readFileSync(BUILT_CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
