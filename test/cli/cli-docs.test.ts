import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';

// docs/cli.md shows the real --help output and real transcripts; these tests fail when the CLI and the page
// disagree. After changing a command: npm run build && node scripts/update-cli-docs.mjs (help blocks only).
const ROOT = join(import.meta.dirname, '../..');
const PAGE = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');

/** Splits a command line as the examples write it: words, and '…' quoting. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

async function verdict(argv: string[]) {
  const io = memoryIo({ cwd: ROOT, stdinIsTTY: true, env: { NO_COLOR: '1' } });
  const status = await run(argv, io);
  return { status, text: io.stdout.text() + io.stderr.text() };
}

const helpBlocks = [...PAGE.matchAll(/```text\n\$ verdict ([^\n]*--help)\n([\s\S]*?)```/g)];
const transcripts = [...PAGE.matchAll(/```console\n([\s\S]*?)```/g)].map((match) =>
  match[1]?.replace(/^ {2}/gm, ''),
);

describe('docs/cli.md', () => {
  test('has a help block for every command and every reference tool', async () => {
    const documented = helpBlocks.map((match) => match[1]);
    const top = await verdict(['--help']);
    const commands = [...top.text.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((match) => match[1]);
    for (const command of commands) expect(documented).toContain(`${command} --help`);
    const list = JSON.parse((await verdict(['tool', '--list', '--json'])).text);
    for (const tool of list.tools) expect(documented).toContain(`tool ${tool.name} --help`);
  });

  test.each(helpBlocks.map((match) => [match[1] ?? '', match[2] ?? '']))(
    'verdict %s is the real help',
    async (line, shown) => {
      expect((await verdict(words(line))).text).toBe(shown);
    },
  );

  test.each(transcripts.map((text) => [text?.split('\n')[0] ?? '', text ?? '']))(
    'the transcript %s is what the CLI prints',
    async (_first, transcript) => {
      const steps = transcript.split(/^\$ /m).filter(Boolean);
      let status = 0;
      for (const step of steps) {
        const [command = '', ...output] = step.split('\n');
        const expected = output.join('\n');
        if (command === 'echo $?') {
          expect(`${status}\n`).toBe(expected);
          continue;
        }
        const ran = await verdict(words(command).slice(1));
        status = ran.status;
        expect(ran.text).toBe(expected);
      }
    },
  );
});
