import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codeForProviderStatus } from '../../src/unified/error-taxonomy.js';
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

  test('the error-mapping sentence says what each status becomes, as the code maps it', () => {
    const start = DOC.indexOf('The HTTP status decides first');
    const sentence = DOC.slice(start, DOC.indexOf('sharpens it', start)).replaceAll('\n', ' ');
    const pairs = [...sentence.matchAll(/((?:\d{3}, )*\d{3}) → `([A-Z_]+)`/g)].flatMap(([, statuses, code]) =>
      (statuses ?? '').split(', ').map((status) => [Number(status), code]),
    );
    expect(pairs.length).toBeGreaterThanOrEqual(13);
    for (const [status, code] of pairs)
      expect(codeForProviderStatus(status as number), String(status)).toBe(code);
    expect(codeForProviderStatus(418)).toBe('VALIDATION_ERROR');
    expect(codeForProviderStatus(599)).toBe('PROVIDER_ERROR');
  });
});
