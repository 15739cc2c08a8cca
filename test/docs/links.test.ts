import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/ensure-build.js';

/** Relative links of README.md and docs/*.md must point at files of the repository (anchors are not checked). */
function pages(): string[] {
  const docs = join(ROOT, 'docs');
  const found = existsSync(docs)
    ? readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => join(docs, name))
    : [];
  return [join(ROOT, 'README.md'), join(ROOT, 'BENCHMARKS.md'), ...found];
}

describe.each(pages().map((page) => [relative(ROOT, page), page] as const))('links in %s', (_name, page) => {
  test('every relative link points at an existing file', () => {
    const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
      .map((target) => target.split('#')[0] ?? '')
      .filter((target) => target !== '' && !existsSync(join(dirname(page), decodeURI(target))));
    expect(broken).toEqual([]);
  });
});
