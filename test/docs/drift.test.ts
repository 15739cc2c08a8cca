import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

// Facts the docs repeat from the code or the test run, checked against their source so that they cannot drift.
const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the docs repeat nothing that changes on its own', () => {
  test('no page states how many tests there are, a number every commit changes', () => {
    for (const page of PAGES) expect(read(page), page).not.toMatch(/\b\d[\d,]*\s+tests\b/);
  });

  test('docs/install.md states no measured duration of the test run', () => {
    const section = read('docs/install.md').split('## Running the tests')[1]?.split('\n## ')[0] ?? '';
    expect(section).not.toBe('');
    expect(section).not.toMatch(/\b\d+\s*min\b|\b\d+\s*s\b/);
  });
});

describe('docs/console.md', () => {
  const page = read('docs/console.md');

  test('names every view fragment the console has, and no other', () => {
    const source = read('src/console/app.tsx');
    const views = [...source.matchAll(/\{ id: '([a-z]+)', title: /g)].map((match) => `#${match[1]}`);
    expect(views.length).toBeGreaterThan(3);
    const sentence = /The fragment picks the view: (.*)\./.exec(page)?.[1] ?? '';
    const named = [...sentence.matchAll(/`(#[a-z]+)`/g)].map((match) => match[1]);
    expect(named.sort()).toEqual(views.sort());
  });

  test('describes every browser test file', () => {
    const section = page.split('## Tests in a real browser')[1] ?? '';
    const files = readdirSync(join(ROOT, 'test/console')).filter((name) => name.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(section, file).toContain(`\`${file}\``);
  });
});
