import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { GATEWAY_BUNDLE, GATEWAY_PACKAGES } from '../src/cli/gateway-packages.js';
import { RESULT_CONTRACT_SCHEMA } from '../src/contract/contract-schema.js';
import { walkImports } from './helpers/import-graph.js';
import { BUILT_CLI, ROOT } from './support/ensure-build.js';

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
}

const GATEWAY_DIR = join(ROOT, 'packages', 'gateway');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const gatewayPkg = JSON.parse(readFileSync(join(GATEWAY_DIR, 'package.json'), 'utf8')) as Manifest;

/** What `npm pack --dry-run` would put in the tarball of the package in `dir`. */
function packedPaths(dir: string): string[] {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: dir,
    encoding: 'utf8',
  });
  expect(pack.status, pack.stderr).toBe(0);
  const [listing] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
  return listing.files.map((f) => f.path);
}

describe('the published package', () => {
  test('npm pack holds only built code, declarations, schemas, the docs, README, LICENSE and package.json', () => {
    const paths = packedPaths(ROOT);
    const allowed = (path: string) =>
      /^dist\/.+(?<!\.test)(?<!\.test-d)(\.js|\.d\.ts)$/.test(path) ||
      /^schemas\/[^/]+\.json$/.test(path) ||
      // The pages messages point at (docs/install.md for a missing package), without their screenshots.
      /^docs\/[\w-]+\.md$/.test(path) ||
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
      'docs/install.md',
      'docs/gateway.md',
    ];
    if (existsSync(join(ROOT, 'README.md'))) required.push('README.md');
    expect(paths).toEqual(expect.arrayContaining(required));
  });

  test('npm pack ships no module that the exports map and the CLI entry cannot reach', () => {
    const packed = packedPaths(ROOT).filter((path) => path.endsWith('.js'));
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

  test('verdict/evidence imports no node: module, however deep, and no package but @noble/hashes', () => {
    const graph = walkImports(join(ROOT, 'dist', 'evidence', 'index.js'));
    expect(graph.files).toContain('create-receipt.js');
    expect(graph.files).not.toContain('write-receipt.js');
    expect(graph.external.map((edge) => edge.split(' → ')[1])).toEqual([
      '@noble/hashes/sha2.js',
      '@noble/hashes/utils.js',
    ]);
  });

  test('the schema file equals RESULT_CONTRACT_SCHEMA', () => {
    const file = JSON.parse(readFileSync(join(ROOT, 'schemas', 'result-contract-v1.schema.json'), 'utf8'));
    expect(file).toEqual(RESULT_CONTRACT_SCHEMA);
  });

  test('engines names the Node lines where require() of an ES module works, and this Node is one', () => {
    const range = pkg.engines?.node ?? '';
    // require(esm) works unflagged from 20.19 and 22.12; ai 7 (for verdict/unified/ai-sdk) needs 22.
    const cases: [string, boolean][] = [
      ['20.0.0', false],
      ['20.18.3', false],
      ['20.19.0', true],
      ['21.7.0', false],
      ['22.11.0', false],
      ['22.12.0', true],
      ['24.0.0', true],
    ];
    for (const [version, expected] of cases)
      expect(satisfies(version, range), `${version} in ${range}`).toBe(expected);
    expect(satisfies(process.versions.node, range), `this Node, ${process.versions.node}`).toBe(true);
  });

  test('no published manifest runs a script when installed (prepare, preinstall, install, postinstall)', () => {
    for (const manifest of [pkg, gatewayPkg]) {
      const scripts = Object.keys(manifest.scripts ?? {});
      expect(
        scripts.filter((name) => ['prepare', 'preinstall', 'install', 'postinstall'].includes(name)),
        manifest.name,
      ).toEqual([]);
    }
  });

  test('depends on @noble/hashes alone: the SDKs, hono, ai and zod are optional peers, so a consumer keeps one copy', () => {
    expect(Object.keys(pkg.dependencies ?? {})).toEqual(['@noble/hashes']);
    const optional = (name: string) => pkg.peerDependenciesMeta?.[name]?.optional === true;
    // Optional peers: `npm install verdict` installs the contract library and nothing it does not use; a CLI
    // server (`verdict mcp serve`, `verdict gateway`) whose peer is missing names it (missing_dependency).
    for (const name of Object.keys(pkg.peerDependencies ?? {})) expect(optional(name), name).toBe(true);
    for (const name of ['@modelcontextprotocol/server', 'hono', '@hono/node-server', 'ai', 'zod']) {
      expect(pkg.peerDependencies?.[name], name).toBeDefined();
    }
    expect(pkg.peerDependencies?.['@modelcontextprotocol/sdk']).toBeDefined();
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

describe('the verdict-gateway package', () => {
  test("depends on verdict at its own version and on every gateway package at verdict's peer range", () => {
    expect(gatewayPkg.name).toBe(GATEWAY_BUNDLE);
    expect(gatewayPkg.version).toBe(pkg.version);
    expect(gatewayPkg.engines).toEqual(pkg.engines);
    const { verdict, ...rest } = gatewayPkg.dependencies ?? {};
    expect(verdict).toBe(pkg.version);
    // One source of truth: verdict's optional peers give the ranges, the gateway package repeats them exactly.
    const peers = Object.fromEntries(Object.keys(rest).map((name) => [name, pkg.peerDependencies?.[name]]));
    expect(rest).toEqual(peers);
    expect(Object.keys(rest).sort()).toEqual([...GATEWAY_PACKAGES].sort());
    for (const name of GATEWAY_PACKAGES) {
      expect(pkg.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      // The development install tests the ranges that are published.
      expect(pkg.devDependencies?.[name], name).toBe(pkg.peerDependencies?.[name]);
    }
    // pg stays optional: a postgres:// store names the command that installs it.
    expect(gatewayPkg.dependencies?.pg).toBeUndefined();
    expect(gatewayPkg.peerDependencies?.pg).toBe(pkg.peerDependencies?.pg);
  });

  test('packs its two commands and README only, each command a node script', () => {
    expect(packedPaths(GATEWAY_DIR).sort()).toEqual([
      'README.md',
      'bin/verdict-gateway.js',
      'bin/verdict.js',
      'package.json',
    ]);
    expect(gatewayPkg.bin).toEqual({
      'verdict-gateway': 'bin/verdict-gateway.js',
      verdict: 'bin/verdict.js',
    });
    for (const bin of Object.values(gatewayPkg.bin ?? {})) {
      expect(readFileSync(join(GATEWAY_DIR, bin), 'utf8').startsWith('#!/usr/bin/env node\n'), bin).toBe(
        true,
      );
    }
  });
});

/** True when `version` meets an engines range made of `^x.y.z` and `>=x.y.z` alternatives joined by `||`. */
function satisfies(version: string, range: string): boolean {
  const parse = (v: string) => v.split('.').map(Number) as [number, number, number];
  const compare = (a: number[], b: number[]) => {
    for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
    return 0;
  };
  const v = parse(version);
  return range.split('||').some((alternative) => {
    const match = /^\s*(\^|>=)\s*(\d+\.\d+\.\d+)\s*$/.exec(alternative);
    if (match === null) throw new Error(`engines range part not understood: ${JSON.stringify(alternative)}`);
    const floor = parse(match[2] as string);
    return compare(v, floor) >= 0 && (match[1] === '>=' || v[0] === floor[0]);
  });
}
