import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Static `import … from`, `export … from`, side-effect `import '…'` and dynamic `import('…')` specifiers; the
// keyword is a word of code, not the end of a string (`['from', 'to']`).
const SPECIFIER = /(?<!['"])(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"]+)\1/g;

// A lazy module as a bundler writes it: `import(`./chunk-1a2b.js`)`, a template literal without substitutions.
const LAZY_CHUNK = /\bimport\(`(\.\.?\/[^`$]+\.js)`\)/g;

// A module started by URL, as worker threads are: `new Worker(new URL('./worker.js', import.meta.url))`.
const MODULE_URL = /\bnew\s+URL\s*\(\s*(['"])(\.\.?\/[^'"]+\.js)\1\s*,\s*import\.meta\.url/g;

/** Every module specifier a file names, read as text (never executed). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...[...text.matchAll(SPECIFIER), ...text.matchAll(MODULE_URL)].map((match) => match[2] as string),
    ...[...text.matchAll(LAZY_CHUNK)].map((match) => match[1] as string),
  ];
}

/** The TypeScript (or built JavaScript) files below a folder, tests left out. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) && !/\.test(-d)?\./.test(entry.name) ? [path] : [];
  });
}

/** Where a module's import graph reaches outside itself: `node:` built-ins and bare package names. */
export interface GraphReport {
  /** Every file reached, relative to the entry's folder. */
  files: string[];
  /** Every import that is not a relative path, as `file → specifier`. */
  external: string[];
}

/** The file a relative specifier names; a `.js` specifier in TypeScript source names the `.ts` file. */
function resolveRelative(from: string, specifier: string): string {
  const path = resolve(dirname(from), specifier);
  const source = path.replace(/\.js$/, '.ts');
  return from.endsWith('.ts') && source !== path && existsSync(source) ? source : path;
}

/**
 * Walks the import graph from `entry` (TypeScript source or built ESM), following relative imports: every file
 * reached (absolute path) with the imports it names that are not relative (`node:` built-ins, packages).
 */
export function externalImportsByFile(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (reached.has(file)) continue;
    const external: string[] = [];
    reached.set(file, external);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('./') || specifier.startsWith('../'))
        queue.push(resolveRelative(file, specifier));
      else external.push(specifier);
    }
  }
  return reached;
}

/**
 * The import graph from `entry` as a report: every file reached and every import that leaves the graph. The one
 * scanner behind the purity, root-export and package tests.
 */
export function walkImports(entry: string): GraphReport {
  const base = dirname(entry);
  const reached = externalImportsByFile(entry);
  const external = [...reached].flatMap(([file, specifiers]) =>
    specifiers.map((specifier) => `${relative(base, file)} → ${specifier}`),
  );
  return { files: [...reached.keys()].map((f) => relative(base, f)).sort(), external };
}
