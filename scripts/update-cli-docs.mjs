// Rewrites every help block of docs/cli.md from the real `--help` output of the built CLI (npm run build
// first). A help block is a fenced `text` block whose first line is `$ verdict … --help`; everything after that
// line is replaced. test/cli/cli-docs.test.ts fails when a block and the CLI disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { run } from '../dist/cli/run.js';

const FILE = new URL('../docs/cli.md', import.meta.url);
const BLOCK = /```text\n\$ verdict ([^\n]*--help)\n[\s\S]*?```/g;

async function helpOf(words) {
  let text = '';
  const sink = { write: (chunk) => (text += String(chunk)) };
  const io = {
    stdout: sink,
    stderr: sink,
    stdin: Readable.from([]),
    env: {},
    cwd: process.cwd(),
    now: () => 0,
  };
  await run(words, io);
  return text;
}

const source = readFileSync(FILE, 'utf8');
let out = '';
let last = 0;
for (const match of source.matchAll(BLOCK)) {
  const help = await helpOf(match[1].split(' '));
  out += `${source.slice(last, match.index)}\`\`\`text\n$ verdict ${match[1]}\n${help}\`\`\``;
  last = match.index + match[0].length;
}
writeFileSync(FILE, out + source.slice(last));
console.log('docs/cli.md: help blocks rewritten from the CLI.');
