import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importsOf, sourceFiles } from '../helpers/import-graph.js';
import { ROOT } from '../support/ensure-build.js';

const GATEWAY = join(ROOT, 'src', 'gateway');

/** The layer of the files at the top of src/gateway: the app. */
const APP = '(app)';

/**
 * The folders of src/gateway from the leaves to the app (docs/design.md, "The gateway's layout"): a file imports
 * files of its own folder or of folders before it, never after. The files at the top of src/gateway are the app
 * that assembles everything, last of all.
 */
const LAYERS = [
  'basics',
  'observability',
  'ai-sdk',
  'config',
  'request',
  'demo',
  'providers',
  'wire',
  'store',
  'spend',
  'cache',
  'pipeline',
  'middleware',
  'routes',
  'surfaces',
  APP,
] as const;

/** The layer of a file: its first folder below src/gateway, or the app for a file at the top. */
function layerOf(file: string): string {
  const parts = relative(GATEWAY, file).split(sep);
  return parts.length === 1 ? APP : (parts[0] as string);
}

/** Every import of the graph that goes from a layer to a later one, as `from → to`; unknown layers too. */
function upwardImports(
  graph: ReadonlyMap<string, readonly string[]>,
  layerOfFile: (file: string) => string,
  layers: readonly string[],
): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = layers.indexOf(layerOfFile(file));
    if (from < 0) found.push(`${file}: its folder is not in the table of layers`);
    for (const target of targets) {
      const to = layers.indexOf(layerOfFile(target));
      if (to > from && from >= 0) found.push(`${file} → ${target}`);
    }
  }
  return found;
}

/** Every cycle of the graph as a list of files, found by a depth-first walk. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (state.get(file) === undefined) visit(file);
  return cycles;
}

describe('the import graph of src/gateway', () => {
  const files = sourceFiles(GATEWAY).filter((file) => file.endsWith('.ts'));
  // Every relative import, `import type` and `export type` included: a type names the module it comes from as
  // much as a value does, so a cycle of types is a cycle of the design.
  const graph = new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'))
        .filter((target) => target.startsWith(GATEWAY)),
    ]),
  );
  const shown = (file: string) => relative(GATEWAY, file);

  test('has no cycle, type-only imports included', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.map(shown).join(' → '))).toEqual([]);
  });

  test('has no upward import: each folder imports only itself and the folders before it in the table', () => {
    const named = new Map([...graph].map(([file, targets]) => [shown(file), targets.map(shown)]));
    const byName = (file: string) => layerOf(join(GATEWAY, file));
    expect(upwardImports(named, byName, LAYERS)).toEqual([]);
  });

  test('every folder of src/gateway is in the table of layers', () => {
    const folders = readdirSync(GATEWAY, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(LAYERS as readonly string[]).includes(folder))).toEqual([]);
  });

  test('the cycle finder finds a cycle when there is one', () => {
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'a']]);
  });

  test('the layer check finds an upward import, and a folder missing from the table, when there is one', () => {
    const layer = (file: string) => file.split('/')[0] as string;
    const layers = ['basics', 'routes'];
    expect(
      upwardImports(
        new Map([
          ['basics/a.ts', ['routes/b.ts', 'basics/c.ts']],
          ['routes/b.ts', ['basics/a.ts']],
          ['elsewhere/d.ts', []],
        ]),
        layer,
        layers,
      ),
    ).toEqual(['basics/a.ts → routes/b.ts', 'elsewhere/d.ts: its folder is not in the table of layers']);
  });

  test('the graph reads type-only imports: the pipeline context names the renderer it answers through', () => {
    const context = join(GATEWAY, 'pipeline', 'gateway-env.ts');
    expect(readFileSync(context, 'utf8')).toMatch(
      /import type \{[^}]*Renderer[^}]*\} from '\.\/renderer\.js'/,
    );
    expect(graph.get(context)).toContain(join(GATEWAY, 'pipeline', 'renderer.ts'));
  });

  test('middleware registers no routes: no middleware module takes the app or imports a route module', () => {
    const middleware = files.filter((file) => layerOf(file) === 'middleware');
    expect(middleware.length).toBeGreaterThan(5);
    const registering = middleware.filter(
      (file) =>
        /import\s+(?:type\s+)?\{[^}]*\bHono\b[^}]*\}\s+from\s+'hono'/.test(readFileSync(file, 'utf8')) ||
        (graph.get(file) ?? []).some((target) => layerOf(target) === 'routes'),
    );
    expect(registering.map(shown)).toEqual([]);
  });

  test('no module but the package entry imports create-gateway.ts', () => {
    const importers = files.filter((file) =>
      (graph.get(file) ?? []).some((target) => target.endsWith(`${sep}create-gateway.ts`)),
    );
    expect(importers.map(shown)).toEqual(['index.ts']);
  });
});
