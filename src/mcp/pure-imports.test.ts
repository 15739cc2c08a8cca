import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { externalImportsByFile as reach } from '../../test/helpers/import-graph.js';

const src = resolve(import.meta.dirname, '..');

describe('pure modules', () => {
  test.each(['mcp/index.ts', 'evidence/receipt-schema.ts'])(
    '%s reaches no node: module and no package',
    (entry) => {
      const outside = [...reach(join(src, entry))].filter(([, external]) => external.length > 0);
      expect(outside.map(([file, external]) => `${relative(src, file)}: ${external.join(', ')}`)).toEqual([]);
    },
  );

  // The pure evidence entry hashes with @noble/hashes, which runs anywhere; nothing else from outside.
  test('evidence/index.ts reaches no node: module and no package but @noble/hashes', () => {
    const outside = [...reach(join(src, 'evidence/index.ts'))].flatMap(([file, external]) =>
      external.map((specifier) => `${relative(src, file)}: ${specifier}`),
    );
    expect(outside.sort()).toEqual([
      'evidence/sha256.ts: @noble/hashes/sha2.js',
      'evidence/sha256.ts: @noble/hashes/utils.js',
    ]);
  });
});
