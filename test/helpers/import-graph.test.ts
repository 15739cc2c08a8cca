import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { walkImports } from './import-graph.js';

describe('walkImports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('finds node: and bare imports behind relative ones, static and dynamic', () => {
    writeFileSync(join(dir, 'index.js'), "export { a } from './a.js';\nimport './b.js';\n");
    writeFileSync(join(dir, 'a.js'), "import { x } from './c.js';\nexport const a = x;\n");
    writeFileSync(join(dir, 'b.js'), "const fs = await import('node:fs');\n");
    writeFileSync(join(dir, 'c.js'), "import z from 'zod';\nexport const x = z;\n");
    const graph = walkImports(join(dir, 'index.js'));
    expect(graph.files).toEqual(['a.js', 'b.js', 'c.js', 'index.js']);
    expect(graph.external.sort()).toEqual(['b.js → node:fs', 'c.js → zod']);
  });

  test('follows a .js specifier in TypeScript source to the .ts file, type imports included', () => {
    mkdirSync(join(dir, 'ts'));
    writeFileSync(join(dir, 'ts/index.ts'), "export type { T } from './types.js';\n");
    writeFileSync(
      join(dir, 'ts/types.ts'),
      "import type { Stats } from 'node:fs';\nexport type T = Stats;\n",
    );
    expect(walkImports(join(dir, 'ts/index.ts'))).toEqual({
      files: ['index.ts', 'types.ts'],
      external: ['types.ts → node:fs'],
    });
  });
});
