import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const src = resolve(import.meta.dirname, '..');

/** Every module a file reaches through relative imports, with its own `node:` and package imports. */
function reach(entry: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(entry)) return seen;
  const text = readFileSync(entry, 'utf8');
  const specifiers = [...text.matchAll(/^(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map(
    (m) => m[1] as string,
  );
  seen.set(
    entry,
    specifiers.filter((s) => !s.startsWith('.')),
  );
  for (const specifier of specifiers.filter((s) => s.startsWith('.'))) {
    reach(join(dirname(entry), specifier.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

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
