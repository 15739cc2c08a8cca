// Bundles the CLI entry (dist/cli/main.js) after `tsc` has emitted dist/: the entry, the dispatcher and the
// main job (`verdict validate`) become one file, so a cold start reads one module of verdict. Every
// subcommand loaded with `import()` stays out of the bundle and is loaded on demand from tsc's own output in
// dist/, so `verdict validate` never loads the MCP SDK, zod or the unified normalizers.
import { chmodSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const OUTFILE = join(DIST, 'cli', 'main.js');

/** Points each dynamic import at the module tsc emitted for it, relative to the bundle. */
const lazySubcommands = {
  name: 'lazy-subcommands',
  setup(context) {
    context.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = resolve(args.resolveDir, args.path); // …/src/cli/commands/mcp.js
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
  plugins: [lazySubcommands],
});
chmodSync(OUTFILE, 0o755);
