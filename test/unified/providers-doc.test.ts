import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { normalizeResponse, STREAM_FORMATS, UNIFIED_FORMATS } from '../../src/unified/index.js';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'providers.md'), 'utf8');

/** The rows of the formats table: `| \`format\` | what | streams | provider |`. */
const ROWS = new Map(
  DOC.split('\n')
    .map((line) => /^\| `([a-z0-9.-]+)`\s*\|([^|]*)\|([^|]*)\|\s*`([a-z0-9.-]+)`\s*\|$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1] ?? '', { streams: (match[3] ?? '').trim(), provider: match[4] ?? '' }]),
);

describe('docs/providers.md', () => {
  test('lists every format once, with its streaming form and the provider id it reports', () => {
    expect([...ROWS.keys()].sort()).toEqual([...UNIFIED_FORMATS].sort());
    for (const format of UNIFIED_FORMATS) {
      const row = ROWS.get(format);
      expect(row?.streams === 'no', format).toBe(!STREAM_FORMATS.includes(format));
      const failure = normalizeResponse({ format, status: 500, body: '{}' });
      expect(failure.provider, format).toBe(row?.provider);
    }
  });
});
