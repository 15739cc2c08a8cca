import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';
import {
  createHold,
  fixture,
  type ReplayProviders,
  startReplayProviders,
} from '../helpers/replay-providers.js';
import { CLI_PATH } from '../helpers/spawn-cli.js';
import { parseSse, readEnvelope } from './envelope-assertions.js';

let replay: ReplayProviders;
let dir: string;
beforeAll(async () => {
  replay = await startReplayProviders();
  dir = mkdtempSync(join(tmpdir(), 'verdict-gateway-'));
});
afterAll(async () => {
  await replay.close();
});

/** Start `verdict gateway` in-process; resolves with its address once it serves. */
async function startCli(args: string[], env: Record<string, string | undefined> = {}) {
  const controller = new AbortController();
  const io = memoryIo({ env, cwd: dir, signal: controller.signal });
  const exit = run(['gateway', '--port', '0', ...args], io);
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

describe('verdict gateway', () => {
  test('zero configuration: a route per provider whose key is set, at the base URL its variable names', async () => {
    const cli = await startCli([], {
      OPENAI_API_KEY: 'sk-env-openai-secret',
      OPENAI_BASE_URL: replay.baseURL.openai,
      ANTHROPIC_API_KEY: 'sk-env-anthropic-secret',
      ANTHROPIC_BASE_URL: replay.baseURL.anthropic,
    });
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.io.stderr.text()).toContain('(openai, anthropic)');
    const answer = await readEnvelope(
      await fetch(`${cli.url}/v1/text`, {
        method: 'POST',
        body: JSON.stringify({ model: 'anthropic:claude-sonnet-4-5', input: 'Say hi' }),
      }),
    );
    expect(answer.envelope).toMatchObject({ success: true, provider: 'anthropic' });
    expect(replay.requests.at(-1)?.headers['x-api-key']).toBe('sk-env-anthropic-secret');
    cli.stop();
    expect(await cli.exit).toBe(0);
    const log = cli.io.stderr.text();
    expect(log).toContain('"route":"/v1/text"');
    expect(log).not.toContain('secret');
    expect(log).toContain('stopped');
  });

  test('a transcription reaches the provider as multipart through the provider pool of verdict gateway', async () => {
    const cli = await startCli([], {
      OPENAI_API_KEY: 'sk-env-openai-secret',
      OPENAI_BASE_URL: replay.baseURL.openai,
    });
    const before = replay.requests.length;
    const answer = await readEnvelope(
      await fetch(`${cli.url}/v1/transcriptions`, {
        method: 'POST',
        body: JSON.stringify({
          model: 'openai:whisper-1',
          audio: 'SUQzBAAAAAAAD//7kGQAAA==',
          media_type: 'audio/mpeg',
        }),
      }),
    );
    expect(answer.envelope).toMatchObject({ success: true, content: 'Hello from the recording.' });
    const sent = replay.requests.slice(before);
    expect(sent.map((request) => request.path)).toEqual(['/v1/audio/transcriptions']);
    expect(sent[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(String(sent[0]?.body)).toContain('name="model"');
    cli.stop();
    expect(await cli.exit).toBe(0);
  });

  test('a client that disconnects mid-stream aborts the provider request', async () => {
    const cli = await startCli([], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: replay.baseURL.openai });
    replay.aborted.length = 0;
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { eventDelayMs: 400 }));
    const client = new AbortController();
    const response = await fetch(`${cli.url}/v1/text`, {
      method: 'POST',
      body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi', stream: true }),
      signal: client.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('event: delta')) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    expect(parseSse(text)[0]).toEqual({ event: 'delta', data: '{"text":"Hel"}' });
    client.abort();
    await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
    cli.stop();
    expect(await cli.exit).toBe(0);
  });

  test('SIGTERM/SIGINT stop gracefully: a request in flight still gets its answer', async () => {
    const cli = await startCli([], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: replay.baseURL.openai });
    // The provider answers only once the gateway is stopping, so the request is in flight then, however slow
    // the machine is.
    const hold = createHold();
    replay.enqueue({
      ...fixture('openai.chat/success/length-with-unknown-fields.json'),
      holdUntil: hold.promise,
    });
    const before = replay.requests.length;
    const inFlight = fetch(`${cli.url}/v1/text`, {
      method: 'POST',
      body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
    });
    await expect.poll(() => replay.requests.length, { timeout: 15_000 }).toBe(before + 1);
    cli.stop();
    await expect.poll(() => cli.io.stderr.text(), { timeout: 15_000 }).toContain('for 1 request(s)');
    hold.release();
    const answer = await readEnvelope(await inFlight);
    expect(answer.envelope).toMatchObject({ success: true, content: 'Once upon a' });
    expect(await cli.exit).toBe(0);
    await expect(fetch(`${cli.url}/healthz`)).rejects.toThrow();
  });

  test('the built CLI stops gracefully on SIGTERM and exits 0', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'gateway', '--port', '0'], {
      env: { ...process.env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: replay.baseURL.openai },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await expect
      .poll(() => /serving on http:\/\/127\.0\.0\.1:\d+/.test(stderr), { timeout: 20_000 })
      .toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('verdict gateway: stopped');
  });

  test('--log-content puts prompts and outputs in the log line', async () => {
    const cli = await startCli(['--log-content'], {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: replay.baseURL.openai,
    });
    await readEnvelope(
      await fetch(`${cli.url}/v1/text`, {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'the prompt' }),
      }),
    );
    cli.stop();
    expect(await cli.exit).toBe(0);
    const line =
      cli.io.stderr
        .text()
        .split('\n')
        .find((text) => text.includes('"route":"/v1/text"')) ?? '{}';
    expect(JSON.parse(line)).toMatchObject({
      input: { input: 'the prompt' },
      content: 'Paris is the capital of France.',
    });
  });

  test("--cache answers a repeated request from the cache, with the config file's settings", async () => {
    writeFileSync(join(dir, 'cache-settings.json'), JSON.stringify({ cache: { enabled: false, ttl_s: 30 } }));
    const cli = await startCli(['--cache', '--config', 'cache-settings.json'], {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: replay.baseURL.openai,
    });
    const completions = () =>
      replay.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
    const before = completions();
    const ask = () =>
      fetch(`${cli.url}/v1/text`, {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'the prompt' }),
      });
    const first = await ask();
    await first.text();
    const second = await ask();
    const envelope = (await readEnvelope(second)).envelope;
    cli.stop();
    expect(await cli.exit).toBe(0);
    expect([first.headers.get('x-verdict-cache'), second.headers.get('x-verdict-cache')]).toEqual([
      'miss',
      'hit',
    ]);
    expect(envelope.metadata.cache).toMatchObject({ status: 'hit' });
    expect(completions() - before).toBe(1);
  });

  test('over HTTP, bodies within the limit are served and larger ones refused, with or without a length', async () => {
    writeFileSync(join(dir, 'small-bodies.json'), JSON.stringify({ maxBodyBytes: 200 }));
    const cli = await startCli(['--config', 'small-bodies.json'], {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: replay.baseURL.openai,
    });
    const small = JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' });
    const large = JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'x'.repeat(500) });
    const served = await readEnvelope(await fetch(`${cli.url}/v1/text`, { method: 'POST', body: small }));
    expect(served.envelope.success).toBe(true);
    const declared = await readEnvelope(await fetch(`${cli.url}/v1/text`, { method: 'POST', body: large }));
    expect(declared.status).toBe(413);
    const chunks = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < text.length; at += 50)
            controller.enqueue(new TextEncoder().encode(text.slice(at, at + 50)));
          controller.close();
        },
      });
    const chunkedSmall = await readEnvelope(
      await fetch(`${cli.url}/v1/text`, {
        method: 'POST',
        body: chunks(small),
        duplex: 'half',
      } as RequestInit),
    );
    expect(chunkedSmall.envelope.success).toBe(true);
    const chunkedLarge = await readEnvelope(
      await fetch(`${cli.url}/v1/text`, {
        method: 'POST',
        body: chunks(large),
        duplex: 'half',
      } as RequestInit),
    );
    expect(chunkedLarge.envelope).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    cli.stop();
    expect(await cli.exit).toBe(0);
  });

  test('exit 1 when the address cannot be served', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const io = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--port', String(port)], io)).toBe(1);
    expect(io.stdout.text()).toContain('serve_failed');
    blocker.close();
  });

  test('a config file is checked strictly: every problem listed with its pointer, exit 2', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(
      path,
      JSON.stringify({
        providers: {
          openai: { baseURL: 'not a url', colour: 'red' },
          'Bad Id': { type: 'openai' },
          local: {},
        },
        aliases: { fast: 'mistral:small' },
        retries: -1,
        nonsense: true,
      }),
    );
    const io = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--config', 'bad.json', '--check-config'], io)).toBe(2);
    const err = io.stderr.text();
    for (const pointer of [
      '/providers/openai/baseURL',
      '/providers/openai/colour',
      '/retries',
      '/nonsense',
    ]) {
      expect(err).toContain(pointer);
    }
    const second = join(dir, 'semantic.json');
    writeFileSync(
      second,
      JSON.stringify({
        providers: { 'Bad Id': { type: 'openai' }, local: {} },
        aliases: { fast: 'mistral:small' },
      }),
    );
    const io2 = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--config', second, '--check-config', '--json'], io2)).toBe(2);
    const result = JSON.parse(io2.stdout.text()) as { details: { problems: { path: string }[] } };
    expect(result.details.problems.map((problem) => problem.path)).toEqual([
      '/providers/Bad Id',
      '/providers/local/baseURL',
      '/aliases/fast',
    ]);
  });

  test('--check-config on a good file says what it configures, exit 0; usage errors exit 2', async () => {
    const path = join(dir, 'good.json');
    writeFileSync(
      path,
      JSON.stringify({
        providers: { openai: { baseURL: replay.baseURL.openai, apiKeyEnv: 'MY_KEY' }, groq: {} },
        aliases: { fast: ['groq:llama', 'openai:gpt-4o-mini'] },
        routes: { text: { timeoutMs: 5000, retries: 1 } },
      }),
    );
    const io = memoryIo({ env: { MY_KEY: 'sk-mine', GROQ_API_KEY: 'gsk-groq' }, cwd: dir });
    expect(await run(['gateway', '--config', 'good.json', '--check-config'], io)).toBe(0);
    expect(io.stdout.text()).toContain('2 provider(s) (openai, groq), 1 alias(es)');
    const missing = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--config', 'absent.json'], missing)).toBe(2);
    expect(missing.stderr.text()).toContain('absent.json does not exist.');
    const folder = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--config', '.', '--check-config'], folder)).toBe(2);
    expect(folder.stderr.text()).toContain('. is a directory, not a file.');
    const noConsole = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--port', '0', '--console', 'absent-dir'], noConsole)).toBe(2);
    expect(noConsole.stderr.text()).toContain('--console absent-dir does not exist.');
    const fileConsole = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--port', '0', '--console', 'good.json'], fileConsole)).toBe(2);
    expect(fileConsole.stderr.text()).toContain('--console good.json is not a directory.');
    expect(await run(['gateway', '--port', 'eighty'], memoryIo({ env: {}, cwd: dir }))).toBe(2);
    expect(await run(['gateway', 'extra'], memoryIo({ env: {}, cwd: dir }))).toBe(2);
    const emptyHost = memoryIo({ env: {}, cwd: dir });
    expect(await run(['gateway', '--port', '0', '--host', ''], emptyHost)).toBe(2);
    expect(emptyHost.stderr.text()).toContain('--host is empty');
  });
});
