import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { type FaultProvider, startFaultProvider } from '../helpers/fault-provider.js';
import { memoryIo } from '../helpers/memory-io.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';

let faults: FaultProvider;
let dir: string;
beforeAll(async () => {
  faults = await startFaultProvider();
  dir = mkdtempSync(join(tmpdir(), 'verdict-gateway-hardening-'));
});
afterAll(() => faults.close());

/** Start `verdict gateway` in-process with `config`; resolves once it serves. */
async function startCli(
  config: Record<string, unknown>,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ providers: faults.providers(), retries: 0, ...config }));
  const controller = new AbortController();
  const io = memoryIo({ env, cwd: dir, signal: controller.signal });
  const exit = run(['gateway', '--port', '0', '--config', file, ...args], io);
  let url: string | undefined;
  await expect
    .poll(
      () => {
        url = /serving on (http:\/\/[^ ]+)/.exec(io.stderr.text())?.[1];
        return url !== undefined || io.stderr.text().includes('could not');
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return { url: url as string, io, exit, stop: () => controller.abort() };
}

function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('verdict gateway under hostile clients', () => {
  test('shutdown: /healthz answers 503 during the grace period; then unfinished requests get a final failure and a log line', async () => {
    const cli = await startCli({ shutdownGraceMs: 1500 });
    const body = (model: string, stream: boolean) =>
      JSON.stringify({ model: `faulty:${model}`, input: 'Hi', stream });
    const streaming = await fetch(`${cli.url}/v1/text`, {
      method: 'POST',
      body: body('stall-mid-stream', true),
    });
    const reader = (streaming.body as ReadableStream<Uint8Array>).getReader();
    let streamed = '';
    while (!streamed.includes('event: delta')) {
      const { value, done } = await reader.read();
      if (done) break;
      streamed += new TextDecoder().decode(value);
    }
    const hanging = fetch(`${cli.url}/v1/text`, { method: 'POST', body: body('slow-first-byte', false) });
    await expect.poll(() => faults.requests.filter((r) => r.model === 'slow-first-byte').length).toBe(1);
    cli.stop();
    await expect.poll(() => cli.io.stderr.text().includes('stopping')).toBe(true);
    const health = await readEnvelope(await fetch(`${cli.url}/healthz`));
    expect(health.status).toBe(503);
    const refused = await readEnvelope(
      await fetch(`${cli.url}/v1/text`, { method: 'POST', body: body('ok', false) }),
    );
    expect(refused.status).toBe(503);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      streamed += new TextDecoder().decode(value);
    }
    expect(readStreamEnvelope(streamed).envelope).toMatchObject({
      success: false,
      error: { code: 'PROVIDER_UNAVAILABLE', details: { reason: 'shutdown' } },
    });
    const hung = await readEnvelope(await hanging);
    expect(hung.envelope).toMatchObject({
      error: { code: 'PROVIDER_UNAVAILABLE', details: { reason: 'shutdown' } },
    });
    expect(await cli.exit).toBe(0);
    const lines = logLines(cli.io.stderr.text()).filter((line) => line.route === '/v1/text');
    expect(lines.map((line) => `${line.status} ${line.code}`).sort()).toEqual([
      '200 PROVIDER_UNAVAILABLE',
      '503 PROVIDER_UNAVAILABLE',
      '503 PROVIDER_UNAVAILABLE',
    ]);
    expect(cli.io.stderr.text()).toContain('stopped (grace period over)');
  });

  test('a client that sends its headers too slowly gets a REQUEST_TIMEOUT envelope and a log line', async () => {
    const cli = await startCli({ headersTimeoutMs: 500 });
    const { port } = new URL(cli.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('POST /v1/text HTTP/1.1\r\nHost: x\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ success: false, error: { code: 'REQUEST_TIMEOUT' }, provider: 'system' });
    expect(logLines(cli.io.stderr.text()).at(-1)).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
    cli.stop();
    expect(await cli.exit).toBe(0);
  });

  test('past maxConnections, a new connection is closed at once; the gateway serves again once they end', async () => {
    const cli = await startCli({ maxConnections: 2 });
    const { port } = new URL(cli.url);
    const open = () =>
      new Promise<Socket>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      });
    const held = [await open(), await open()];
    const extra = await open();
    const ended = await new Promise<string>((resolve) => {
      let received = '';
      extra.on('data', (chunk) => {
        received += chunk.toString();
      });
      extra.on('close', () => resolve(received));
      extra.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(ended).toBe('');
    for (const socket of held) socket.destroy();
    await expect
      .poll(async () => (await fetch(`${cli.url}/healthz`).catch(() => undefined))?.status)
      .toBe(200);
    cli.stop();
    expect(await cli.exit).toBe(0);
  });

  test('clients that send part of a request and never read nor close hold no slot once answered: /healthz answers', async () => {
    const cli = await startCli({ maxConnections: 3, headersTimeoutMs: 300 });
    const { port } = new URL(cli.url);
    // Each sends half a request, then neither reads its 408 (paused) nor closes its side of the connection.
    const stuck = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(Number(port), '127.0.0.1', () => {
              socket.pause();
              socket.write('POST /v1/text HTTP/1.1\r\nHost: x\r\n', () => resolve(socket));
            });
            socket.on('error', () => undefined);
          }),
      ),
    );
    try {
      // Each is answered 408 once its headers time out; the gateway then frees its slot for the next client.
      await expect
        .poll(() => logLines(cli.io.stderr.text()).filter((line) => line.code === 'REQUEST_TIMEOUT').length, {
          timeout: 10_000,
        })
        .toBe(3);
      await expect
        .poll(async () => (await fetch(`${cli.url}/healthz`).catch(() => undefined))?.status, {
          timeout: 10_000,
        })
        .toBe(200);
    } finally {
      for (const socket of stuck) socket.destroy();
      cli.stop();
    }
    expect(await cli.exit).toBe(0);
  });

  test('keys from VERDICT_GATEWAY_KEYS shorter than 16 characters are refused at start', async () => {
    const io = memoryIo({ env: { VERDICT_GATEWAY_KEYS: 'a,b' }, cwd: dir });
    expect(await run(['gateway', '--port', '0'], io)).toBe(2);
    expect(io.stderr.text()).toContain('at least 16 characters');
    expect(io.stderr.text()).not.toContain('serving on');
    const checked = memoryIo({ env: { VERDICT_GATEWAY_KEYS: 'a,b' }, cwd: dir });
    expect(await run(['gateway', '--check-config'], checked)).toBe(2);
  });

  test('--console DIR serves regular files inside DIR only: no dotfiles, no symlinks out, unless asked', async () => {
    const site = join(dir, 'site');
    const outside = join(dir, 'outside');
    mkdirSync(join(site, 'assets'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(site, 'assets', 'app.js'), 'console.log(1);');
    writeFileSync(join(site, '.env'), 'OPENAI_API_KEY=sk-should-not-be-served');
    writeFileSync(join(outside, 'secret.txt'), 'outside the console');
    symlinkSync(join(outside, 'secret.txt'), join(site, 'linked.txt'));
    symlinkSync(join(site, 'assets', 'app.js'), join(site, 'inside.js'));
    const cli = await startCli({}, ['--console', site]);
    expect((await fetch(`${cli.url}/`)).status).toBe(200);
    expect(await (await fetch(`${cli.url}/assets/app.js`)).text()).toBe('console.log(1);');
    expect((await fetch(`${cli.url}/inside.js`)).status).toBe(200);
    for (const path of ['/.env', '/linked.txt', '/%2eenv', '/assets/../.env']) {
      const answer = await readEnvelope(await fetch(`${cli.url}${path}`));
      expect(answer.envelope).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    cli.stop();
    await cli.exit;
    const open = await startCli({}, ['--console', site, '--console-dotfiles', '--console-symlinks']);
    expect(await (await fetch(`${open.url}/.env`)).text()).toContain('OPENAI_API_KEY');
    expect(await (await fetch(`${open.url}/linked.txt`)).text()).toBe('outside the console');
    open.stop();
    await open.exit;
  });
});
