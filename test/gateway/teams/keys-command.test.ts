import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../../src/cli/run.js';
import { memoryIo } from '../../helpers/memory-io.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-keys-command-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `verdict gateway keys create` in-process on a PGlite store of its own; what it wrote where. */
async function create(name: string, json: boolean) {
  const io = memoryIo({ env: { NO_COLOR: '1' }, cwd: dir, stdinIsTTY: true });
  const args = ['gateway', 'keys', 'create', '--name', name, '--store', join(dir, name)];
  const status = await run(json ? [...args, '--json'] : args, io);
  return { status, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

// PGlite creates its database in seconds, tens on a busy machine: one generous deadline per test.
describe('verdict gateway keys create', () => {
  test('--json shows the new secret once, in its own member, never in the message', async () => {
    const { status, stdout } = await create('team-json', true);
    expect(status).toBe(0);
    const document = JSON.parse(stdout);
    expect(document.key).toMatch(/^vk_/);
    expect(document.message).toBe('Created the key "team-json".');
    expect(occurrences(stdout, document.key)).toBe(1);
  }, 300_000);

  test('for people, the secret is printed once too', async () => {
    const { status, stdout, stderr } = await create('team-human', false);
    expect(status).toBe(0);
    const key = /key: (vk_\S+)/.exec(stdout)?.[1] ?? '';
    expect(key).toMatch(/^vk_/);
    expect(occurrences(stdout + stderr, key)).toBe(1);
    expect(stderr).toContain('it is shown once');
  }, 300_000);
});
