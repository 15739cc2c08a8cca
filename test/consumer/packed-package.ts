import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/ensure-build.js';

/** A fresh consumer project with packed tarballs of this checkout installed in it. */
export interface PackedConsumer {
  /** The consumer project's folder (its `node_modules/verdict` is the installed tarball). */
  dir: string;
  /** The tarball of verdict `npm pack` made. */
  tarball: string;
  /** Removes everything. */
  remove(): void;
}

type LockEntry = Record<string, unknown> & {
  version?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

type Manifest = LockEntry & { name: string; version: string; bin?: unknown; engines?: unknown };

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** The packages this checkout publishes: verdict (the root) and verdict-gateway (packages/gateway). */
export const PUBLISHED = {
  verdict: ROOT,
  'verdict-gateway': join(ROOT, 'packages', 'gateway'),
} as const;

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Where Node finds `name` from the package at `from` (a lockfile path), as the repository's lockfile lays it out. */
function lockPathOf(name: string, from: string): string | undefined {
  for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
    const path = at === '' ? `node_modules/${name}` : `${at}/node_modules/${name}`;
    if (lock.packages[path] !== undefined) return path;
    if (at === '') return undefined;
  }
}

/**
 * The lockfile entries of `names` and of everything they need (dependencies, optional ones when the
 * repository's lockfile has them, peers that are not optional), at the paths, versions and integrity the
 * repository's lockfile pins, so that `npm ci --offline` takes each one from the cache installing the repository filled.
 */
function pinnedClosure(names: Iterable<string>, skip: ReadonlySet<string>): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  const visit = (name: string, from: string, required: boolean) => {
    if (skip.has(name)) return;
    const path = lockPathOf(name, from);
    if (path === undefined) {
      if (required) throw new Error(`package-lock.json does not pin ${name}: run npm install.`);
      return;
    }
    if (path in entries) return;
    const pinned = lock.packages[path] as LockEntry;
    const { dev: _dev, peer: _peer, devOptional: _devOptional, ...rest } = pinned;
    const file = `${name.split('/').pop()}-${String(pinned.version)}.tgz`;
    entries[path] = { ...rest, resolved: pinned.resolved ?? `https://registry.npmjs.org/${name}/-/${file}` };
    for (const dep of Object.keys(pinned.dependencies ?? {})) visit(dep, path, true);
    for (const dep of Object.keys(pinned.optionalDependencies ?? {})) visit(dep, path, false);
    for (const dep of Object.keys(pinned.peerDependencies ?? {})) {
      if (pinned.peerDependenciesMeta?.[dep]?.optional !== true) visit(dep, path, true);
    }
  };
  for (const name of names) visit(name, '', true);
  return entries;
}

/**
 * Packs the named packages of this checkout (without running scripts: the tests build first) and installs the
 * tarballs into a new project with `npm ci --offline`, from a lockfile written here: the tarballs, and each
 * of their dependencies at the version and integrity the repository's lockfile pins, so npm takes them from
 * the local cache that installing the repository filled and never reaches the network. Optional peers are not
 * installed: the consumer has only what the packages themselves bring.
 */
export function installPackedConsumer(
  packages: readonly (keyof typeof PUBLISHED)[] = ['verdict'],
): PackedConsumer {
  const work = mkdtempSync(join(tmpdir(), 'verdict-consumer-'));
  const dir = join(work, 'consumer');
  mkdirSync(dir);
  const dependencies: Record<string, string> = {};
  const packages_: Record<string, unknown> = {};
  const published = new Set<string>(packages);
  const needed = new Set<string>();
  let tarball = '';
  // verdict-gateway depends on verdict: both come from this checkout when both are asked for.
  for (const name of packages) {
    const manifest = manifestOf(PUBLISHED[name]);
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
        cwd: PUBLISHED[name],
        encoding: 'utf8',
      }),
    ) as [{ filename: string }];
    const file = join(work, packed[0].filename);
    if (name === 'verdict') tarball = file;
    const spec = `file:../${packed[0].filename}`;
    dependencies[name] = spec;
    packages_[`node_modules/${name}`] = {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
      bin: manifest.bin,
      engines: manifest.engines,
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) needed.add(dep);
  }
  const pkg = { name: 'consumer', private: true, type: 'module', dependencies };
  Object.assign(packages_, pinnedClosure(needed, published));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(
    join(dir, 'package-lock.json'),
    `${JSON.stringify(
      {
        name: 'consumer',
        lockfileVersion: 3,
        requires: true,
        packages: { '': { name: 'consumer', dependencies }, ...packages_ },
      },
      null,
      2,
    )}\n`,
  );
  execFileSync(
    'npm',
    ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { dir, tarball, remove: () => rmSync(work, { recursive: true, force: true }) };
}
