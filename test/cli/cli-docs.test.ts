import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';

// docs/cli.md shows the real --help of every command; the docs test (test/docs) checks that each shown help is
// what the CLI prints. This test checks that none is missing, so a new command cannot go undocumented.
const ROOT = join(import.meta.dirname, '../..');
const PAGE = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
const SHOWN = [...PAGE.matchAll(/^\$ npx verdict (.*) --help$/gm)].map((match) => match[1]);

async function stdoutOf(argv: string[]): Promise<string> {
  const io = memoryIo({ cwd: ROOT, stdinIsTTY: true, env: { NO_COLOR: '1' } });
  await run(argv, io);
  return io.stdout.text();
}

describe('docs/cli.md', () => {
  test('shows the help of every command and every reference tool', async () => {
    const top = await stdoutOf(['--help']);
    const commands = [...top.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((match) => match[1]);
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) expect(SHOWN).toContain(command);
    const list = JSON.parse(await stdoutOf(['tool', '--list', '--json']));
    for (const tool of list.tools) expect(SHOWN).toContain(`tool ${tool.name}`);
  });
});
