import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';

// docs/cli.md shows the real --help of every command; the docs test (test/docs) checks that each shown help is
// what the CLI prints. This test checks that none is missing, so a new command cannot go undocumented, and that
// the synopsis at the top of the page names the options and subcommands the CLI really has.
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

  test("the synopsis names only real options, all of a command's options, and every command the helps cite", async () => {
    const block = /## Synopsis\n\n```\n([\s\S]*?)```/.exec(PAGE)?.[1] ?? '';
    const lines = block.split('\n').filter((line) => line.startsWith('verdict '));
    expect(lines.length).toBeGreaterThan(5);
    const covered = new Set<string>();
    const cited = new Set<string>();
    for (const line of lines) {
      const words = line.split(' ').slice(1);
      const path: string[] = [];
      for (const word of words) {
        if (!/^[a-z][a-z-]*(\|[a-z][a-z-]*)*$/.test(word)) break;
        path.push(word);
      }
      if (path.length === 0) continue;
      // `keys create|list|…` stands for each of its alternatives.
      const last = path.at(-1) ?? '';
      const variants = last.includes('|')
        ? last.split('|').map((name) => [...path.slice(0, -1), name])
        : [path];
      for (const variant of variants) {
        covered.add(variant.join(' '));
        const help = await stdoutOf([...variant, '--help']);
        expect(help, `verdict ${variant.join(' ')} --help`).toMatch(/^Usage: /);
        for (const [, command] of help.matchAll(/`verdict ([a-z][a-z -|]*?)`/g)) cited.add(command ?? '');
        const options = new Set(
          [...(help.split('\nOptions:\n')[1] ?? '').matchAll(/^ {2}(?:-[a-z], )?(--[a-z][a-z-]*)/gm)].map(
            (match) => match[1],
          ),
        );
        const named = new Set([...line.matchAll(/(--[a-z][a-z-]*)/g)].map((match) => match[1]));
        for (const option of named) {
          if (option === '--help' || option === '--version') continue;
          expect(options, `${line}: ${option}`).toContain(option);
        }
        // A line that ends with … (or [options]) elides options on purpose; any other names them all.
        if (/(…|\[options\])$/.test(line) || line.includes('--list')) continue;
        for (const option of options) {
          if (option === '--json' || option === '--help') continue;
          expect(named, `${line} lacks ${option}`).toContain(option);
        }
      }
    }
    for (const command of cited) {
      for (const name of expandAlternatives(command.trim()))
        expect(covered, `verdict ${name}`).toContain(name);
    }
  });
});

/** `gateway keys create|list` → `gateway keys create`, `gateway keys list`. */
function expandAlternatives(command: string): string[] {
  const words = command.split(' ').filter((word) => /^[a-z][a-z-|]*$/.test(word));
  const last = words.at(-1) ?? '';
  return last.includes('|')
    ? last.split('|').map((name) => [...words.slice(0, -1), name].join(' '))
    : [words.join(' ')];
}
