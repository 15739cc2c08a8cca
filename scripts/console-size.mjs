// Prints the size of the console's static build (dist/console), raw and gzip-compressed (level 9), split into
// the page's own code (with Preact) and verdict's modules, which the build puts in a chunk of their own.
// Run after `npm run build:console`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const assets = fileURLToPath(new URL('../dist/console/assets/', import.meta.url));
const rows = readdirSync(assets)
  .sort()
  .map((name) => {
    const bytes = readFileSync(join(assets, name));
    const part = name.startsWith('verdict-')
      ? "verdict's modules"
      : name.endsWith('.css')
        ? 'stylesheet'
        : 'page';
    return { name, part, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const row of rows)
  console.log(
    `${row.part.padEnd(18)} ${row.name.padEnd(28)} ${kb(row.raw).padStart(9)} ${kb(row.gzip).padStart(9)} gzip`,
  );
const sum = (part) => rows.filter((r) => r.part === part).reduce((total, r) => total + r.gzip, 0);
console.log(
  `page JavaScript (gzip): ${kb(sum('page'))}; verdict's modules (gzip): ${kb(sum("verdict's modules"))}`,
);
