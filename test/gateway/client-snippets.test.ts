import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';

/**
 * The snippets of docs/gateway.md's "Use it from your existing client", run as a reader would run them: each
 * TypeScript block as a program of its own against `verdict gateway --demo` (served here on a free port, with a
 * gateway key), printing what the page shows under it; the curl block through the shell.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'gateway.md'), 'utf8');
// The OpenAI clients' part of the section; the Anthropic clients' programs run in test/docs/examples.test.ts.
const SECTION = DOC.slice(
  DOC.indexOf('## Use it from your existing client'),
  DOC.indexOf('\n### Anthropic clients'),
);
const PROGRAMS = [...SECTION.matchAll(/```ts\n([\s\S]*?)```\n```text\n([\s\S]*?)```/g)].map(
  ([, source, shown]) => ({
    source: source as string,
    shown: (shown as string).trimEnd(),
  }),
);
/** README.md's drop-in quick start: the OpenAI and the Anthropic client of a gateway without keys. */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const README_PROGRAM =
  /Then your existing client[^\n]*\n\n<!--[^\n]*-->\n```ts\n([\s\S]*?)```\n\n```text\n([\s\S]*?)```/.exec(
    README,
  );
const CURLS = [...SECTION.matchAll(/```sh\n(curl [^\n]+)\n```/g)].map(([, command]) => command as string);
const ADDRESS = 'http://127.0.0.1:8787';
const KEY = 'gateway-key-of-the-snippets';
const run = promisify(execFile);

let server: Server;
let url: string;
const work = join(tmpdir(), `verdict-client-snippets-${process.pid}`);

beforeAll(async () => {
  const gateway = createGateway({ providers: { demo: {} }, keys: [KEY] });
  server = serve({ fetch: gateway.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  if (!server.listening) await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mkdirSync(join(work, 'node_modules'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (!name.startsWith('.'))
      symlinkSync(join(ROOT, 'node_modules', name), join(work, 'node_modules', name));
  }
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

const env = {
  ...process.env,
  VERDICT_GATEWAY_KEY: KEY,
  OPENAI_API_KEY: undefined,
  OPENAI_BASE_URL: undefined,
};

describe('docs/gateway.md, "Use it from your existing client"', () => {
  test('shows the OpenAI SDK (chat and Responses), the AI SDK, LangChain and curl', () => {
    expect(PROGRAMS.map((program) => /from '([^']+)'/.exec(program.source)?.[1])).toEqual([
      'openai',
      'openai',
      '@ai-sdk/openai-compatible',
      '@langchain/openai',
    ]);
    expect(CURLS).toHaveLength(1);
  });

  test.each(PROGRAMS.map((program, index) => [index, program] as const))(
    'program %i prints what the page shows',
    async (index, program) => {
      const file = join(work, `snippet-${index}.mjs`);
      const code = transformSync(program.source.replaceAll(ADDRESS, url), {
        loader: 'ts',
        format: 'esm',
      }).code;
      writeFileSync(file, code);
      const { stdout } = await run(process.execPath, [file], { cwd: work, env, timeout: 60_000 });
      expect(stdout.trimEnd()).toBe(program.shown);
    },
    90_000,
  );

  test('the curl answers a chat.completion with the demo greeting', async () => {
    const { stdout } = await run('bash', ['-c', (CURLS[0] ?? '').replaceAll(ADDRESS, url)], {
      env,
      timeout: 60_000,
    });
    const completion = JSON.parse(stdout) as { object: string; choices: { message: { content: string } }[] };
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toMatch(/^Hello! /);
  });
});

describe('README.md, "Then your existing client"', () => {
  test('the OpenAI and the Anthropic client, given only the base URL, print the demo answer', async () => {
    expect(README_PROGRAM).not.toBeNull();
    const [, source = '', shown = ''] = README_PROGRAM ?? [];
    const keyless = createGateway({ providers: { demo: {} } });
    const readmeServer = serve({ fetch: keyless.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    if (!readmeServer.listening) await once(readmeServer, 'listening');
    try {
      const readmeUrl = `http://127.0.0.1:${(readmeServer.address() as AddressInfo).port}`;
      const file = join(work, 'readme-drop-in.mjs');
      writeFileSync(
        file,
        transformSync(source.replaceAll(ADDRESS, readmeUrl), { loader: 'ts', format: 'esm' }).code,
      );
      const { stdout } = await run(process.execPath, [file], { cwd: work, env, timeout: 60_000 });
      expect(stdout.trimEnd()).toBe(shown.trimEnd());
    } finally {
      readmeServer.closeAllConnections();
      await new Promise((resolve) => readmeServer.close(resolve));
    }
  }, 90_000);
});
