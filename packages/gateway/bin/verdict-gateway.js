#!/usr/bin/env node
// `verdict-gateway [options]` is `verdict gateway [options]`, run by the command line of the verdict package this
// package depends on (docs/gateway.md in that package lists the options).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const main = join(
  dirname(createRequire(import.meta.url).resolve('verdict/package.json')),
  'dist',
  'cli',
  'main.js',
);
process.argv.splice(2, 0, 'gateway');
await import(pathToFileURL(main).href);
