import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importsOf, sourceFiles } from '../helpers/import-graph.js';
import { ROOT } from '../support/ensure-build.js';

const GATEWAY = join(ROOT, 'src', 'gateway');

/** The relative imports of a file that load code: `import type` and `export type` lines name types only. */
function runtimeImports(file: string): string[] {
  const types = new Set(
    [
      ...readFileSync(file, 'utf8').matchAll(/\b(?:import|export)\s+type\s[^;]*?from\s*(['"])([^'"]+)\1/g),
    ].map((match) => match[2] as string),
  );
  return importsOf(file).filter((specifier) => specifier.startsWith('.') && !types.has(specifier));
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
  const graph = new Map(
    files.map((file) => [
      file,
      runtimeImports(file)
        .map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'))
        .filter((target) => target.startsWith(GATEWAY)),
    ]),
  );

  test('has no cycle: routes and middleware never import the app that assembles them', () => {
    const shown = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(GATEWAY, file)).join(' → '));
    expect(shown).toEqual([]);
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

  test('no route or middleware module imports create-gateway.ts', () => {
    const importers = files.filter((file) =>
      (graph.get(file) ?? []).some((target) => target.endsWith('/create-gateway.ts')),
    );
    expect(importers.map((file) => relative(GATEWAY, file))).toEqual(['index.ts']);
  });
});
