import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importsOf, sourceFiles, walkImports } from '../../test/helpers/import-graph.js';

const src = join(import.meta.dirname, '..');

describe('src/json', () => {
  test('imports nothing from node:, so the root export runs in browsers and edge runtimes', () => {
    const sources = sourceFiles(import.meta.dirname);
    expect(sources.map((file) => file.slice(import.meta.dirname.length + 1))).toContain('read-json.ts');
    const offenders = sources.flatMap((file) =>
      importsOf(file).filter((specifier) => !specifier.startsWith('.')),
    );
    expect(offenders).toEqual([]);
  });

  test('the root export reaches no node: module and no package in its sources, however deep', () => {
    const graph = walkImports(join(src, 'index.ts'));
    expect(graph.files).toContain('contract/findings.ts');
    expect(graph.files).toContain('json/read-json.ts');
    expect(graph.external).toEqual([]);
  });
});
