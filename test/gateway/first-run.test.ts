import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { providersFromEnv, providerVariables } from '../../src/gateway/index.js';
import { memoryIo } from '../helpers/memory-io.js';
import { readEnvelope } from './envelope-assertions.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-first-run-'));
});

/** Start `verdict gateway` in-process; resolves once it announces its address on stderr. */
async function startCli(args: string[], env: Record<string, string | undefined> = {}) {
  const controller = new AbortController();
  const io = memoryIo({ env, cwd: dir, signal: controller.signal });
  let status: number | undefined;
  const exit = run(['gateway', '--port', '0', ...args], io).then((code) => {
    status = code;
    return code;
  });
  let url: string | undefined;
  await expect
    .poll(
      () => {
        url = /serving on (http:\/\/[^ ]+?)[ ;]/.exec(io.stderr.text())?.[1];
        return url !== undefined || status !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  if (url === undefined) throw new Error(`verdict gateway ended with ${status}: ${io.stderr.text()}`);
  return {
    url,
    io,
    stop: () => {
      controller.abort();
      return exit;
    },
  };
}

function writeConfig(name: string, config: unknown): string {
  writeFileSync(join(dir, name), JSON.stringify(config));
  return name;
}

/** The providers of the start-up hint, each with the sets of variables its line names (`A + B or C`). */
function hintedProviders(text: string): Map<string, string[][]> {
  const listed = new Map<string, string[][]>();
  for (const [, provider = '', said = ''] of text.matchAll(/^ {2}([a-z][a-z-]*) {2,}([A-Z].*)$/gm)) {
    listed.set(
      provider,
      said.split(' or ').map((set) => set.split(' + ')),
    );
  }
  return listed;
}

/**
 * For each provider, setting exactly one of the named sets (placeholder values) configures that provider and no
 * other, and leaving out any one variable of the set does not configure it.
 */
function expectHintsConfigure(listed: ReadonlyMap<string, string[][]>) {
  for (const [provider, sets] of listed) {
    for (const set of sets) {
      const env = Object.fromEntries(set.map((name) => [name, 'https://set.example/v1']));
      expect(Object.keys(providersFromEnv(env)), `${provider}: ${set.join(' + ')}`).toContain(provider);
      for (const left of set) {
        const partial = Object.fromEntries(set.filter((name) => name !== left).map((name) => [name, 'x']));
        expect(Object.keys(providersFromEnv(partial)), `${provider} without ${left}`).not.toContain(provider);
      }
    }
  }
}

describe('verdict gateway on a first run', () => {
  test('with no provider, says which variable each provider reads, the config file, --demo and the console', async () => {
    const cli = await startCli([], {});
    const err = cli.io.stderr.text();
    const first = err.split('\n')[0] ?? '';
    expect(first).toContain(`serving on ${cli.url} (no provider configured)`);
    expect(first).toContain(`console at ${cli.url}/`);
    // Every provider the configuration knows is listed, and what its line says to set really configures it.
    const listed = hintedProviders(err);
    expect([...listed.keys()].sort()).toEqual(
      providerVariables()
        .map(({ provider }) => provider)
        .sort(),
    );
    expectHintsConfigure(listed);
    expect(err).toContain('--config');
    expect(err).toContain('verdict gateway --demo');
    // A request meanwhile is an envelope that says the same.
    const answer = await readEnvelope(
      await fetch(`${cli.url}/v1/text`, {
        method: 'POST',
        body: JSON.stringify({ model: 'x:y', input: 'Hi' }),
      }),
    );
    expect(answer.envelope).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(answer.envelope.success ? '' : answer.envelope.error.message).toContain('--demo');
    expect(await cli.stop()).toBe(0);
  });

  test('--help names, for every provider, variables that really configure it', async () => {
    const io = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--help'], io)).toBe(0);
    const help = io.stdout.text();
    const start = help.indexOf('*_BASE_URL variables:\n');
    const block = help.slice(start).split('\n').slice(1);
    const items = block
      .slice(
        0,
        block.findIndex((line) => !line.startsWith('  ')),
      )
      .join(' ')
      .trim()
      .replace(/\.$/, '')
      .split(/, /);
    expect(items).toHaveLength(providerVariables().length);
    for (const item of items) {
      const sets = item.split(' or ').map((set) => set.trim().split(' + '));
      const configured = sets.map((set) =>
        Object.keys(providersFromEnv(Object.fromEntries(set.map((name) => [name, 'https://set.example'])))),
      );
      for (const [index, providers] of configured.entries())
        expect(providers, sets[index]?.join(' + ')).toHaveLength(1);
    }
  });

  test('refuses a short VERDICT_ADMIN_KEY when it starts, as it refuses a short gateway key', async () => {
    for (const env of [{ VERDICT_ADMIN_KEY: 'short' }, { VERDICT_GATEWAY_KEYS: 'short' }]) {
      const io = memoryIo({ env, cwd: dir });
      // --check-config makes the gateway the start-up would make, and answers at once either way.
      expect(await run(['gateway', '--demo', '--check-config'], io), JSON.stringify(env)).toBe(2);
      expect(io.stderr.text()).toMatch(/at least 16 characters/);
    }
  });

  test('with providers, its first line lists them and the console address', async () => {
    const cli = await startCli(['--demo'], { OPENAI_API_KEY: 'sk-first-run' });
    const first = cli.io.stderr.text().split('\n')[0] ?? '';
    expect(first).toBe(`verdict gateway: serving on ${cli.url} (openai, demo); console at ${cli.url}/`);
    expect(cli.io.stderr.text()).not.toContain('no provider is configured');
    expect(await cli.stop()).toBe(0);
  });

  test('--demo serves the demo answers over HTTP, and the console', async () => {
    const cli = await startCli(['--demo']);
    const answer = await readEnvelope(
      await fetch(`${cli.url}/v1/text`, {
        method: 'POST',
        body: JSON.stringify({ model: 'demo:chat', input: 'Say hi' }),
      }),
    );
    expect(answer.envelope).toMatchObject({ success: true, provider: 'demo', metadata: { demo: true } });
    const page = await fetch(`${cli.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await cli.stop()).toBe(0);
  });
});

describe('credentials are checked before serving', () => {
  test.each([
    ['not set', {}],
    ['empty', { OPENAI_API_KEY: '  ' }],
  ])(
    'a provider whose key variable is %s is a configuration error naming the variable',
    async (state, env) => {
      const config = writeConfig('openai.json', { providers: { openai: {} } });
      for (const extra of [['--check-config'], ['--port', '0']]) {
        const io = memoryIo({ env, cwd: dir });
        expect(await run(['gateway', '--config', config, ...extra], io)).toBe(2);
        expect(io.stderr.text()).toContain(`Provider "openai" needs its key: OPENAI_API_KEY is ${state}.`);
        expect(io.stderr.text()).not.toContain('serving on');
      }
      const json = memoryIo({ env, cwd: dir });
      expect(await run(['gateway', '--config', config, '--check-config', '--json'], json)).toBe(2);
      const result = JSON.parse(json.stdout.text()) as {
        error_code: string;
        details: { problems: { path: string; message: string }[] };
      };
      expect(result.error_code).toBe('invalid_arguments');
      expect(result.details.problems).toEqual([{ path: '/providers/openai', message: expect.any(String) }]);
    },
  );

  test('a key named by apiKeyEnv is the one checked; keyless providers pass', async () => {
    const config = writeConfig('named.json', {
      providers: {
        mine: { type: 'openai', apiKeyEnv: 'MY_OPENAI_KEY' },
        local: { baseURL: 'http://127.0.0.1:11434/v1' },
        demo: {},
      },
    });
    const without = memoryIo({ env: { OPENAI_API_KEY: 'sk-other' }, cwd: dir });
    expect(await run(['gateway', '--config', config, '--check-config'], without)).toBe(2);
    expect(without.stderr.text()).toContain('Provider "mine" needs its key: MY_OPENAI_KEY is not set.');
    expect(without.stderr.text()).not.toContain('"local"');
    expect(without.stderr.text()).not.toContain('"demo"');
    const withKey = memoryIo({ env: { MY_OPENAI_KEY: 'sk-mine' }, cwd: dir });
    expect(await run(['gateway', '--config', config, '--check-config'], withKey)).toBe(0);
    expect(withKey.stdout.text()).toContain('3 provider(s) (mine, local, demo)');
  });

  test('--check-config with nothing configured says so and suggests --demo, exit 2', async () => {
    const io = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--check-config'], io)).toBe(2);
    expect(io.stderr.text()).toContain('No provider is configured');
    expect(io.stderr.text()).toContain('--demo');
    expect(io.stdout.text()).not.toContain('valid');
    const empty = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--config', writeConfig('empty.json', {}), '--check-config'], empty)).toBe(
      2,
    );
    const demo = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--demo', '--check-config'], demo)).toBe(0);
    expect(demo.stdout.text()).toContain('1 provider(s) (demo)');
  });

  test('--demo streams at a reading pace, unless the config file sets one; --check-config says which', async () => {
    const paced = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--demo', '--check-config', '--json'], paced)).toBe(0);
    expect(JSON.parse(paced.stdout.text()).demo_pace_ms).toBe(60);
    const config = writeConfig('unpaced.json', { demoPaceMs: 0 });
    const unpaced = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--config', config, '--demo', '--check-config', '--json'], unpaced)).toBe(0);
    expect(JSON.parse(unpaced.stdout.text()).demo_pace_ms).toBe(0);
    const none = memoryIo({ env: { OPENAI_API_KEY: 'sk-first-run' }, cwd: dir });
    expect(await run(['gateway', '--check-config', '--json'], none)).toBe(0);
    expect(JSON.parse(none.stdout.text())).not.toHaveProperty('demo_pace_ms');
  });

  test('--demo next to a configured provider of another type named demo is refused', async () => {
    const config = writeConfig('taken.json', {
      providers: { demo: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' } },
    });
    const io = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--config', config, '--demo', '--check-config'], io)).toBe(2);
    expect(io.stderr.text()).toContain('Invalid arguments for gateway:');
  });
});
