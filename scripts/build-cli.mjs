// Bundles the CLI entry (dist/cli/main.js) after `tsc` has emitted dist/: the entry, the dispatcher and the
// main job (`verdict validate`) become one file, so a cold start reads one module of verdict. Every
// subcommand loaded with `import()` stays out of the bundle and is loaded on demand from tsc's own output in
// dist/, so `verdict validate` never loads the MCP SDK, zod or the unified normalizers.
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const OUTFILE = join(DIST, 'cli', 'main.js');

/** The source files the bundle loads lazily from dist/, as esbuild found them. */
const lazySources = new Set();

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/**
 * Writes verdict's version into the bundle as a constant. The module itself reads package.json at run time
 * through `createRequire`, which loads `node:module` and the CommonJS loader: a cost at every start-up.
 */
const versionConstant = {
  name: 'version-constant',
  setup(context) {
    context.onLoad({ filter: /[\\/]src[\\/]cli[\\/]version\.ts$/ }, () => ({
      contents: `export const VERSION = ${JSON.stringify(pkg.version)};`,
      loader: 'ts',
    }));
  },
};

/** Points each dynamic import at the module tsc emitted for it, relative to the bundle. */
const lazySubcommands = {
  name: 'lazy-subcommands',
  setup(context) {
    context.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = resolve(args.resolveDir, args.path); // …/src/cli/commands/mcp.js
      lazySources.add(source.replace(/\.js$/, '.ts'));
      const emitted = join(DIST, relative(SRC, source));
      let path = relative(dirname(OUTFILE), emitted).split('\\').join('/');
      if (!path.startsWith('.')) path = `./${path}`;
      return { path, external: true };
    });
  },
};

await build({
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/main.ts'],
  outfile: OUTFILE,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  allowOverwrite: true,
  logLevel: 'warning',
  plugins: [lazySubcommands, versionConstant],
});
chmodSync(OUTFILE, 0o755);

// The package ships only what a consumer can reach: the modules behind the `exports` map and the modules the
// CLI bundle loads lazily, with their imports (static and dynamic). tsc's copies of the modules bundled into
// the CLI entry, and the CLI's declarations, are removed from dist/: nothing could import them.
const exported = Object.values(pkg.exports)
  .map((target) => (typeof target === 'object' ? target.default : target))
  .filter((target) => typeof target === 'string' && target.startsWith('./dist/') && target.endsWith('.js'))
  .map((target) => join(SRC, target.slice('./dist/'.length).replace(/\.js$/, '.ts')));
// Worker threads the bundle starts by file (`new Worker(new URL(…, import.meta.url))`), kept with their imports.
const workerSources = [join(SRC, 'cli', 'validate-lines-worker.ts')];
const reach = await build({
  absWorkingDir: ROOT,
  entryPoints: [...exported, ...lazySources, ...workerSources],
  bundle: true,
  write: false,
  metafile: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outdir: join(ROOT, '.tmp', 'reach'),
  logLevel: 'warning',
});
const reachable = new Set(
  Object.keys(reach.metafile.inputs).map((input) =>
    join(DIST, relative('src', input)).replace(/\.ts$/, '.js'),
  ),
);
reachable.add(OUTFILE);
/** Every file below a folder. */
const filesBelow = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(join(folder, entry.name)) : [join(folder, entry.name)],
  );
// dist/console is the web page (its own Vite build), served as files by `verdict gateway`: not modules to prune.
for (const file of filesBelow(DIST).filter((path) => !relative(DIST, path).startsWith('console/'))) {
  const unreachableCode = file.endsWith('.js') && !reachable.has(file);
  const cliTypes = file.endsWith('.d.ts') && relative(DIST, file).startsWith(`cli/`);
  if (unreachableCode || cliTypes) rmSync(file);
}
