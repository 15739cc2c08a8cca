import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/ensure-build.js';

/** A fresh consumer project with the packed tarball of this checkout installed in it. */
export interface PackedConsumer {
  /** The consumer project's folder (its `node_modules/verdict` is the installed tarball). */
  dir: string;
  /** The tarball `npm pack` made. */
  tarball: string;
  /** Removes everything. */
  remove(): void;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, Record<string, unknown>>;
};
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & {
  dependencies?: Record<string, string>;
};

/**
 * Packs this checkout (without running scripts: the tests build first) and installs the tarball into a new
 * project with `npm ci --offline`, from a lockfile written here: the tarball, and each of verdict's own
 * dependencies at the version and integrity the repository's lockfile pins, so npm takes them from the local
 * cache that installing the repository filled and never reaches the network. Peers are not installed
 * (`--legacy-peer-deps`): the consumer has only what verdict itself brings.
 */
export function installPackedConsumer(): PackedConsumer {
  const work = mkdtempSync(join(tmpdir(), 'verdict-consumer-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as [{ filename: string }];
  const tarball = join(work, packed[0].filename);
  const dir = join(work, 'consumer');
  mkdirSync(dir);
  const spec = `file:../${packed[0].filename}`;
  const pkg = { name: 'consumer', private: true, type: 'module', dependencies: { verdict: spec } };
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: pkg.dependencies },
    'node_modules/verdict': {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const pinned = lock.packages[`node_modules/${name}`];
    if (pinned === undefined) throw new Error(`package-lock.json does not pin ${name}: run npm install.`);
    const version = String(pinned.version);
    const file = `${name.split('/').pop()}-${version}.tgz`;
    packages[`node_modules/${name}`] = {
      ...pinned,
      resolved: pinned.resolved ?? `https://registry.npmjs.org/${name}/-/${file}`,
    };
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(
    join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
  execFileSync(
    'npm',
    ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { dir, tarball, remove: () => rmSync(work, { recursive: true, force: true }) };
}
