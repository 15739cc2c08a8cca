#!/usr/bin/env node
// `verdict …` from this package, for `npm install -g verdict-gateway`: the command line of the verdict package
// this package depends on, every subcommand included (`verdict gateway --demo`, `verdict validate …`).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const main = join(
  dirname(createRequire(import.meta.url).resolve('verdict/package.json')),
  'dist',
  'cli',
  'main.js',
);
await import(pathToFileURL(main).href);
