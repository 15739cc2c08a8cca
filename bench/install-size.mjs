// Installed size of verdict for a consumer: packs this checkout, installs the tarball into a fresh project from
// the local npm cache where it can (`npm install --prefer-offline`), and reports what node_modules holds.
//   node bench/install-size.mjs             default install (npm 7+ installs non-optional peers)
//   node bench/install-size.mjs --omit=peer  what a consumer who imports only the root can install
//   node bench/install-size.mjs --root DIR   the same for another (built) checkout
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Packages installed under a node_modules folder, nested ones included. */
function countPackages(folder) {
  let count = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.name.startsWith('@')) {
      count += countPackages(path);
      continue;
    }
    count += 1;
    if (existsSync(join(path, 'node_modules'))) count += countPackages(join(path, 'node_modules'));
  }
  return count;
}

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
// --root DIR measures another checkout (built), e.g. the main branch before a change.
const root = rootAt === -1 ? fileURLToPath(new URL('..', import.meta.url)) : args.splice(rootAt, 2)[1];
const extra = args;
const work = mkdtempSync(join(tmpdir(), 'verdict-size-'));
try {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  const consumer = join(work, 'consumer');
  execFileSync('mkdir', ['-p', consumer]);
  writeFileSync(join(consumer, 'package.json'), '{"name":"consumer","private":true,"type":"module"}\n');
  execFileSync(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      ...extra,
      join(work, packed.filename),
    ],
    { cwd: consumer, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const du = (...flags) =>
    Number(
      execFileSync('du', [...flags, join(consumer, 'node_modules')], { encoding: 'utf8' }).split('\t')[0],
    );
  // On disk (whole blocks, what `du -sk` says) and the files' own bytes (what a registry or tarball counts).
  const kb = du('-sk');
  const apparentKb = du('-sk', '--apparent-size');
  const top = readdirSync(join(consumer, 'node_modules')).filter((n) => !n.startsWith('.'));
  const packages = countPackages(join(consumer, 'node_modules'));
  console.log(
    JSON.stringify({
      install: extra.join(' ') || 'default',
      tarball_kb: Math.round(packed.size / 1024),
      node_modules_kb: kb,
      node_modules_apparent_kb: apparentKb,
      packages,
      top_level: top,
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
