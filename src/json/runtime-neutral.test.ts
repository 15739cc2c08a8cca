import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

describe('src/json', () => {
  test('imports nothing from node:, so the root export runs in browsers and edge runtimes', () => {
    const folder = new URL('./', import.meta.url);
    const sources = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.includes('.test.'));
    expect(sources).toContain('read-json.ts');
    for (const name of sources) {
      expect(readFileSync(new URL(name, folder), 'utf8'), name).not.toMatch(/from ['"]node:|require\(/);
    }
  });
});
