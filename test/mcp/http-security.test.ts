import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectClient } from '../../bench/mcp-http-load.mjs';
import { run } from '../../src/cli/run.js';
import { createVerdictServerFactory, serveMcp } from '../../src/mcp/server/index.js';
import { memoryIo } from '../helpers/memory-io.js';
import { serveInProcess } from '../helpers/serve-in-process.js';

const TOKEN = 'security-test-token-0123456789abcdef';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Whether the request went over a connection an earlier request had used. */
  reused: boolean;
}

/** POSTs an `initialize` request to the endpoint with the given headers (Host included, which fetch cannot set). */
function post(url: URL, headers: Record<string, string>, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ...(agent === undefined ? {} : { agent }),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reused: req.reusedSocket }),
        );
      },
    );
    req.once('error', reject);
    req.end(INITIALIZE);
  });
}

/** Runs `verdict mcp serve` expecting it to refuse at once; returns its exit status and result document. */
async function refused(args: string[], env: Record<string, string> = {}) {
  const io = memoryIo({ env });
  const status = await run(['mcp', 'serve', ...args, '--json'], io);
  return { status, result: JSON.parse(io.stdout.text()) as Record<string, unknown> };
}

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'verdict-mcp-http-'));
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('verdict mcp serve --http: bearer token', () => {
  test('refuses a request without the token or with another one: 401, WWW-Authenticate: Bearer, JSON body', async () => {
    const server = await serveInProcess(['--http', '127.0.0.1:0'], { VERDICT_MCP_TOKEN: TOKEN });
    try {
      for (const headers of [
        {},
        { authorization: 'Bearer not-the-token' },
        { authorization: `Basic ${TOKEN}` },
      ]) {
        const answer = await post(server.url, headers);
        expect(answer.status).toBe(401);
        expect(String(answer.headers['www-authenticate'])).toMatch(/^Bearer /);
        expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_token' });
      }
      expect((await post(server.url, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      const stranger = await connectClient(server.url, { token: 'x'.repeat(32) }).catch(
        (error: unknown) => error,
      );
      expect(stranger).toBeInstanceOf(Error);
      expect(server.stderr.text()).not.toContain(TOKEN);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('makes a token when none is given and prints it on stderr only', async () => {
    const server = await serveInProcess(['--http', '127.0.0.1:0']);
    try {
      const token = /bearer token \(generated for this run\): (\S+)/.exec(server.stderr.text())?.[1];
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await post(server.url, {})).status).toBe(401);
      const client = await connectClient(server.url, { token: token as string });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
      expect(server.stdout.text()).toBe('');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('reads the token from --token-file', async () => {
    const file = join(folder, 'token');
    writeFileSync(file, `${TOKEN}\n`);
    const server = await serveInProcess(['--http', '127.0.0.1:0', '--token-file', file]);
    try {
      expect((await post(server.url, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      expect((await post(server.url, {})).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('--allow-unauthenticated serves without a token, and says so on stderr', async () => {
    const server = await serveInProcess(['--http', '127.0.0.1:0', '--allow-unauthenticated']);
    try {
      expect((await post(server.url, {})).status).toBe(200);
      expect(server.stderr.text()).toContain('WITHOUT authentication');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('serveMcp over HTTP', () => {
  test('refuses to serve without a token unless allowUnauthenticated says so', async () => {
    const factory = createVerdictServerFactory({ commands: [], version: '0.0.0', log: memoryIo().stderr });
    for (const http of [
      { host: '127.0.0.1', port: 0 },
      { host: '127.0.0.1', port: 0, token: '' },
    ]) {
      await expect(serveMcp({ factory, log: memoryIo().stderr, http })).rejects.toMatchObject({
        name: 'VerdictError',
        code: 'invalid_argument',
      });
    }
  });
});

describe('serveMcp over HTTP: connection bounds', () => {
  test('caps connections; half-sent requests time out and free their slots for an authenticated call', async () => {
    const factory = createVerdictServerFactory({ commands: [], version: '0.0.0', log: memoryIo().stderr });
    const controller = new AbortController();
    const log = memoryIo().stderr;
    const serving = serveMcp({
      factory,
      log,
      signal: controller.signal,
      http: {
        host: '127.0.0.1',
        port: 0,
        token: TOKEN,
        bounds: { maxConnections: 3, headersTimeoutMs: 300 },
      },
    });
    await expect.poll(() => /serving MCP on (\S+)/.test(log.text()), { timeout: 10_000 }).toBe(true);
    const url = new URL(/serving MCP on (\S+)/.exec(log.text())?.[1] as string);
    const open = (request: string) =>
      new Promise<Socket>((resolve) => {
        const socket = connect(Number(url.port), '127.0.0.1', () => {
          socket.pause();
          socket.write(request, () => resolve(socket));
        });
        socket.on('error', () => undefined);
      });
    const held = await Promise.all([1, 2, 3].map(() => open('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n')));
    try {
      // Past the cap a connection is closed without an answer.
      const extra = await open('GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      extra.resume();
      const answered = await new Promise<string>((resolve) => {
        let text = '';
        extra.on('data', (chunk) => {
          text += chunk.toString();
        });
        extra.on('close', () => resolve(text));
      });
      expect(answered).toBe('');
      await expect
        .poll(
          async () => (await post(url, { authorization: `Bearer ${TOKEN}` }).catch(() => undefined))?.status,
          {
            timeout: 10_000,
          },
        )
        .toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      controller.abort();
      await serving;
    }
  });
});

describe('verdict mcp serve --http: Host and Origin checks on every bind', () => {
  test('on loopback, a foreign Host or Origin is refused (403) even with the right token', async () => {
    const server = await serveInProcess(['--http', '127.0.0.1:0'], { VERDICT_MCP_TOKEN: TOKEN });
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await post(server.url, { ...auth, host: 'evil.example' })).status).toBe(403);
      expect((await post(server.url, { ...auth, origin: 'http://evil.example' })).status).toBe(403);
      expect((await post(server.url, { ...auth, host: `localhost:${server.url.port}` })).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('on 0.0.0.0, a foreign Host is refused; --allowed-host names the hosts clients may use', async () => {
    const server = await serveInProcess(['--http', '0.0.0.0:0', '--allowed-host', 'mcp.example'], {
      VERDICT_MCP_TOKEN: TOKEN,
    });
    const url = new URL(`http://127.0.0.1:${server.url.port}/mcp`);
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      const evil = await post(url, { ...auth, host: 'evil.example' });
      expect(evil.status).toBe(403);
      expect(evil.body).toContain('Invalid Host');
      expect((await post(url, { ...auth, host: `mcp.example:${url.port}` })).status).toBe(200);
      expect((await post(url, { ...auth, host: `MCP.example:${url.port}` })).status).toBe(200);
      expect((await post(url, { host: `mcp.example:${url.port}` })).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('verdict mcp serve --http: keep-alive', () => {
  // The server runs in this process, so Node's own HTTP diagnostics channel shows the server's side of each
  // connection.
  const serverSockets: Socket[] = [];
  const onRequest = (message: unknown) => {
    serverSockets.push((message as { socket: Socket }).socket);
  };
  beforeAll(() => subscribe('http.server.request.start', onRequest));
  afterAll(() => unsubscribe('http.server.request.start', onRequest));

  test('keeps an idle connection open past the 5 s at which Node would close it, so clients can reuse it', async () => {
    const server = await serveInProcess(['--http', '127.0.0.1:0'], { VERDICT_MCP_TOKEN: TOKEN });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      const first = await post(server.url, auth, agent);
      expect(first.reused).toBe(false);
      // Once an answer is finished, Node arms the idle timer of the server's side of the connection with the
      // server's keep-alive timeout. Reading that timer proves the connection outlives Node's default (5 s)
      // and the 4 s clients such as undici keep theirs, without idling for seconds on a clock.
      await expect
        .poll(() => serverSockets.at(-1)?.timeout ?? 0, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(65_000);
      // Headers must come within the gateway's 10 s, and connections are capped as the gateway's are.
      const { server: http } = serverSockets.at(-1) as Socket & { server: import('node:http').Server };
      expect([http.headersTimeout, http.maxConnections]).toEqual([10_000, 1024]);
      const second = await post(server.url, auth, agent);
      expect(second.status).toBe(200);
      expect(second.reused).toBe(true);
    } finally {
      agent.destroy();
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('verdict mcp serve: usage errors exit 2 with a reason', () => {
  test.each([
    [['--http', '0.0.0.0:0'], {}, /listens beyond this machine.*VERDICT_MCP_TOKEN.*--allow-unauthenticated/],
    [['--http', '[::]:0'], {}, /listens beyond this machine/],
    [['--http', '127.0.0.1:0', '--allow-unauthenticated'], { VERDICT_MCP_TOKEN: TOKEN }, /contradicts/],
    [['--http', '127.0.0.1:0'], { VERDICT_MCP_TOKEN: 'short' }, /shorter than 16/],
    [
      ['--http', '127.0.0.1:0', '--token-file', '/nonexistent/token'],
      {},
      /--token-file \/nonexistent\/token does not exist\./,
    ],
    [['--http', '127.0.0.1:0', '--token-file', '.'], {}, /--token-file \. is a directory, not a file\./],
    [['--allowed-host', 'mcp.example'], {}, /--allowed-host only applies with --http\./],
    [
      ['--token-file', 't', '--allow-unauthenticated'],
      {},
      /--token-file, --allow-unauthenticated only apply with --http\./,
    ],
    [['--http', '127.0.0.1:0', '--allowed-host', 'a/b'], {}, /--allowed-host takes a host name/],
    [['--max-result-bytes', '10'], {}, /at least 1024/],
  ])('%j is refused', async (args, env, reason) => {
    const { status, result } = await refused(args, env as Record<string, string>);
    expect(status).toBe(2);
    expect(result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    expect(String(result.error)).toMatch(reason);
  });

  test('--help describes the token, the host checks and the result limit', async () => {
    const io = memoryIo();
    expect(await run(['mcp', 'serve', '--help'], io)).toBe(0);
    for (const word of [
      '--token-file',
      'VERDICT_MCP_TOKEN',
      '--allowed-host',
      '--allow-unauthenticated',
      '--max-result-bytes',
    ]) {
      expect(io.stdout.text()).toContain(word);
    }
  });
});

describe('verdict mcp serve --http: bounded tool results', () => {
  test('a result over --max-result-bytes is a result_too_large failure; reads are capped before reading', async () => {
    const big = join(folder, 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, 200 * 1024 * 1024);
    const escapes = join(folder, 'escapes.txt');
    writeFileSync(escapes, '\u0001'.repeat(3000));
    const server = await serveInProcess(['--http', '127.0.0.1:0', '--max-result-bytes', '4096'], {
      VERDICT_MCP_TOKEN: TOKEN,
    });
    try {
      const client = await connectClient(server.url, { token: TOKEN });
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: 'readFile', arguments: args })) as {
          isError?: boolean;
          structuredContent: Record<string, unknown>;
        };
      // 3,000 bytes serialize to 18,000 (each is escaped as \u0001): answered, but as a conforming failure.
      const escaped = await call({ path: escapes });
      expect(escaped.isError).toBe(true);
      expect(escaped.structuredContent).toMatchObject({
        success: false,
        error_code: 'result_too_large',
        details: { limit_bytes: 4096 },
      });
      expect((escaped.structuredContent.details as { size_bytes: number }).size_bytes).toBeGreaterThan(
        18_000,
      );
      expect(server.stderr.text()).toMatch(
        /readFile returned \d+ bytes, more than the 4096-byte result limit/,
      );
      // The 200 MB file is refused from its size, before anything is read.
      const large = await call({ path: big });
      expect(large.structuredContent).toMatchObject({ error_code: 'file_too_large', max_bytes: 4096 });
      await expect(
        client.callTool({ name: 'readFile', arguments: { path: big, 'max-bytes': 300_000_000 } }),
      ).rejects.toMatchObject({ code: -32602 });
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
