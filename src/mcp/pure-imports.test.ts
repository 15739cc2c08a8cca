import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { externalImportsByFile as reach } from '../../test/helpers/import-graph.js';

const src = resolve(import.meta.dirname, '..');

describe('pure modules', () => {
  test.each([
    'mcp/index.ts',
    'evidence/create-receipt.ts',
    'evidence/receipt-schema.ts',
    'evidence/sha256.ts',
  ])('%s reaches no node: module and no package', (entry) => {
    const outside = [...reach(join(src, entry))].filter(([, external]) => external.length > 0);
    expect(outside.map(([file, external]) => `${relative(src, file)}: ${external.join(', ')}`)).toEqual([]);
  });
});
