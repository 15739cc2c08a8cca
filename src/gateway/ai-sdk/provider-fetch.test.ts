import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Socket,
  type Server as TcpServer,
} from 'node:net';
import { brotliCompressSync, deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createProviderFetch } from './provider-fetch.js';

/** What the server saw of one request. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the test server answers on each path. */
const ANSWERS: Record<string, (response: ServerResponse) => void> = {
  '/json': (response) => {
    response.setHeader('set-cookie', ['a=1', 'b=2']);
    response.writeHead(200, 'Fine', { 'content-type': 'application/json', 'x-request-id': 'req_1' });
    response.end('{"ok":true}');
  },
  '/gzip': (response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end(gzipSync('{"zipped":true}'));
  },
  '/gzip-br': (response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, br' });
    response.end(brotliCompressSync(gzipSync('{"twice":true}')));
  },
  '/gzip-cut': (response) => {
    // The gzip trailer (and the end of the data) missing: `fetch` yields what was decoded.
    const zipped = gzipSync('{"zipped":true,"cut":"here"}');
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end(zipped.subarray(0, zipped.length - 8));
  },
  '/gzip-long': (response) => {
    // A few hundred bytes on the wire that decode to many pieces.
    response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    response.end(gzipSync('a'.repeat(1_000_000)));
  },
  '/deflate-raw': (response) => {
    // Raw deflate under the name `deflate`, without the zlib wrapper the name promises.
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
    response.end(deflateRawSync('{"raw":true}'));
  },
  '/identity-gzip': (response) => {
    // A coding `fetch` does not decode (`identity` is one) leaves the whole body as it came.
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'identity, gzip' });
    response.end(gzipSync('{"zipped":true}'));
  },
  '/redirect': (response) => {
    response.writeHead(302, { location: '/json' }).end('moved');
  },
  '/error': (response) => {
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
    response.end('{"error":{"message":"slow down"}}');
  },
  '/empty': (response) => {
    response.writeHead(204).end();
  },
  '/cut': (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: {"part":1}\n\n');
    setImmediate(() => response.socket?.destroy());
  },
  '/slow': (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: {"part":1}\n\n');
  },
  '/hang': () => undefined,
};

let server: Server;
let origin: string;
const seen: Seen[] = [];

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const path = request.url ?? '/';
    seen.push({ method: request.method ?? '', path, headers: request.headers, body: await bodyOf(request) });
    (ANSWERS[path.split('?')[0] ?? ''] ?? ANSWERS['/json'])?.(response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The connections a server holds open (the client closing them is the signal a test waits for). */
function connectionsOf(target: Server | TcpServer): Promise<number> {
  return new Promise((done, failed) =>
    target.getConnections((error, count) => (error ? failed(error) : done(count))),
  );
}

/** What a test compares of an answer: status, the headers a provider package reads, and the body. */
async function answerOf(response: Response) {
  return {
    status: response.status,
    statusText: response.statusText,
    ok: response.ok,
    contentType: response.headers.get('content-type'),
    requestId: response.headers.get('x-request-id'),
    cookies: response.headers.getSetCookie(),
    location: response.headers.get('location'),
    retryAfter: response.headers.get('retry-after'),
    body: response.body === null ? null : await response.text(),
  };
}

/** How a call failed: what the AI SDK and the gateway look at (the error's type, message, cause code, name). */
async function failureOf(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return {
      name: (error as Error).name,
      type: error instanceof TypeError ? 'TypeError' : error?.constructor?.name,
      message: (error as Error).message,
      cause: typeof cause?.code === 'string' ? cause.code.replace(/^UND_ERR_/, '') : undefined,
    };
  }
  throw new Error('The call did not fail.');
}

/** Calls `answer` with the head of each whole request a raw provider socket receives, in order. */
function onRequests(socket: Socket, answer: (head: string) => void): void {
  let pending = '';
  socket.on('data', (data) => {
    pending += data.toString('latin1');
    for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
      const head = pending.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (pending.length < end + 4 + length) return;
      pending = pending.slice(end + 4 + length);
      answer(head);
    }
  });
}

describe('createProviderFetch answers as the global fetch does', () => {
  const pool = createProviderFetch();
  afterAll(() => pool.close());
  // How the gateway's provider fetch calls it: its own headers, redirects not followed.
  const init = (extra: RequestInit = {}): RequestInit => ({
    method: 'POST',
    headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer sk-test' }),
    body: '{"model":"m"}',
    redirect: 'manual',
    ...extra,
  });

  test.each([
    ['/json'],
    ['/gzip'],
    ['/gzip-br'],
    ['/gzip-cut'],
    ['/deflate-raw'],
    ['/identity-gzip'],
    ['/redirect'],
    ['/error'],
    ['/empty'],
  ])('%s: the same status, headers and body', async (path) => {
    const ours = await answerOf(await pool.fetch(`${origin}${path}`, init()));
    const theirs = await answerOf(await fetch(`${origin}${path}`, init()));
    expect(ours).toEqual(theirs);
  });

  test('a body cut short in its gzip, and raw deflate, decode as far as they go', async () => {
    const cut = await pool.fetch(`${origin}/gzip-cut`, init());
    expect(await cut.text()).toBe('{"zipped":true,"cut":"here"}');
    expect(await (await pool.fetch(`${origin}/deflate-raw`, init())).json()).toEqual({ raw: true });
  });

  test('more than five content codings fail as "fetch failed", none decoded', async () => {
    const many = createServer((_request, response) => {
      response.writeHead(200, { 'content-encoding': Array(6).fill('gzip').join(', ') });
      response.end(gzipSync('{}'));
    });
    many.listen(0, '127.0.0.1');
    await once(many, 'listening');
    const url = `http://127.0.0.1:${(many.address() as AddressInfo).port}/`;
    const ours = await failureOf(() => pool.fetch(url, init()));
    expect(ours).toEqual(await failureOf(() => fetch(url, init())));
    expect(ours).toMatchObject({ type: 'TypeError', message: 'fetch failed' });
    many.closeAllConnections();
    many.close();
  });

  test('a HEAD or GET without a body, a body of bytes, and a text body without a type', async () => {
    const head = await pool.fetch(`${origin}/json`, init({ method: 'HEAD', body: null }));
    expect(head.body).toBeNull();
    const get = await pool.fetch(`${origin}/json?x=1`, { ...init({ method: 'GET' }), body: null });
    expect(await get.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', path: '/json?x=1', body: '' });
    await (await pool.fetch(`${origin}/json`, init({ body: new TextEncoder().encode('bytes') }))).text();
    expect(seen.at(-1)).toMatchObject({ body: 'bytes', headers: { 'content-length': '5' } });
    await (await pool.fetch(`${origin}/json`, init({ headers: {}, body: 'plain' }))).text();
    expect(seen.at(-1)?.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(seen.at(-2)?.headers.authorization).toBe('Bearer sk-test');
  });

  test('a connection refused fails as "fetch failed" with the network error as its cause', async () => {
    const closed = createTcpServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((done) => closed.close(done));
    const ours = await failureOf(() => pool.fetch(url, init()));
    expect(ours).toEqual(await failureOf(() => fetch(url, init())));
    expect(ours).toMatchObject({ type: 'TypeError', message: 'fetch failed', cause: 'ECONNREFUSED' });
  });

  test('a connection dropped in the middle of the body fails its read as "terminated"', async () => {
    // Compared with the global fetch on the same pool (a redirect to follow takes that path): the cause is the
    // one undici gives for a connection that was to close after its answer.
    const read = (redirect: RequestRedirect) => async () =>
      (await pool.fetch(`${origin}/cut`, init({ redirect }))).text();
    const ours = await failureOf(read('manual'));
    expect(ours).toEqual(await failureOf(read('follow')));
    expect(ours).toMatchObject({ type: 'TypeError', message: 'terminated' });
  });

  test('an abort before the answer or during its body rejects with the signal’s reason', async () => {
    const reason = new DOMException('The request deadline passed.', 'TimeoutError');
    const before = new AbortController();
    const pending = pool.fetch(`${origin}/hang`, init({ signal: before.signal }));
    await expect.poll(() => seen.at(-1)?.path, { timeout: 20_000 }).toBe('/hang');
    before.abort(reason);
    await expect(pending).rejects.toBe(reason);
    const during = new AbortController();
    const response = await pool.fetch(`${origin}/slow`, init({ signal: during.signal }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"part":1}\n\n');
    during.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    const already = new AbortController();
    already.abort(reason);
    await expect(pool.fetch(`${origin}/json`, init({ signal: already.signal }))).rejects.toBe(reason);
  });

  test('an abort after a compressed body arrived, before all of it was read, fails the rest of the read', async () => {
    const reason = new DOMException('The request deadline passed.', 'TimeoutError');
    const read = async (fetcher: typeof fetch) => {
      const aborter = new AbortController();
      const response = await fetcher(`${origin}/gzip-long`, init({ signal: aborter.signal }));
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      // The first decoded piece is out: the few compressed bytes behind it have all been taken in.
      await reader.read();
      aborter.abort(reason);
      for (;;) if ((await reader.read()).done) return;
    };
    await expect(read(fetch)).rejects.toBe(reason);
    await expect(read(pool.fetch)).rejects.toBe(reason);
  });

  test('after extra bytes past a content-length, 103 Early Hints, or a body cancelled mid-way, the pool still answers', async () => {
    // Raw bytes node:http would not send, one answer per request as it arrives.
    const WIRE: Record<string, string> = {
      '/extra': 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 500 Stray\r\n\r\n',
      '/early':
        'HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
      '/ok': 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
    };
    const raw = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      onRequests(socket, (head) => {
        const path = head.split(' ')[1] ?? '';
        if (path !== '/endless') socket.write(WIRE[path] ?? '');
        else {
          socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
          const timer = setInterval(() => socket.write('4\r\nmore\r\n'), 5);
          socket.once('close', () => clearInterval(timer));
        }
      });
    });
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    for (const path of ['/extra', '/early']) {
      const theirs = await answerOf(await fetch(`${url}${path}`, init()));
      expect(await answerOf(await pool.fetch(`${url}${path}`, init()))).toEqual(theirs);
      expect(await (await pool.fetch(`${url}/ok`, init())).text()).toBe('ok');
    }
    const endless = await pool.fetch(`${url}/endless`, init());
    const reader = (endless.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('more');
    await reader.cancel();
    expect(await (await pool.fetch(`${url}/ok`, init())).text()).toBe('ok');
    raw.close();
  });

  test('an unsolicited answer a provider sends on an idle connection is never read as the next answer', async () => {
    // Each request is answered with its own path; on a signal from the test, once an answer has been read, the
    // connection that gave it sends one more, unasked: the next request on that connection must not get it.
    let straysSent = 0;
    let latest: Socket | undefined;
    const raw = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      onRequests(socket, (head) => {
        const body = `answer for ${head.split(' ')[1]}`;
        socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
        latest = socket;
      });
    });
    // The stray answer, and the end of the connection it went to (the pool closes a connection after its one
    // answer), which is the signal a test can wait for.
    const sendStray = async () => {
      const socket = latest as Socket;
      const closed = socket.closed ? Promise.resolve() : once(socket, 'close');
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nSTRAY');
      straysSent++;
      await closed;
    };
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    // The direct path (text bodies, redirects not followed) and the global fetch's (redirects followed).
    for (const redirect of ['manual', 'follow'] as const) {
      const call = async (path: string) =>
        (await pool.fetch(`${url}${path}`, { method: 'POST', body: path, redirect })).text();
      expect(await call(`/${redirect}-1`)).toBe(`answer for /${redirect}-1`);
      await sendStray();
      for (const n of [2, 3, 4]) expect(await call(`/${redirect}-${n}`)).toBe(`answer for /${redirect}-${n}`);
    }
    expect(straysSent).toBe(2);
    raw.close();
  });

  /** How a provider sends one answer too many, right behind a complete one (see the test below). */
  const STRAY_VARIANTS = {
    'in the same write as the answer': (socket: Socket, answer: string, stray: string, _nth: number) =>
      socket.write(answer + stray),
    'in the next write, at once': (socket: Socket, answer: string, stray: string, _nth: number) => {
      socket.write(answer);
      socket.write(stray);
    },
    'on the next turn of the event loop': (socket: Socket, answer: string, stray: string, _nth: number) => {
      socket.write(answer);
      setImmediate(() => socket.writable && socket.write(stray));
    },
    // Written apart from an answer that is not a connection's first, the stray waits in the provider's kernel
    // (Nagle's algorithm) for the acknowledgement that the next request carries, and arrives just after it.
    'in the next write, on a connection already reused': (
      socket: Socket,
      answer: string,
      stray: string,
      nth: number,
    ) => {
      socket.write(answer);
      if (nth >= 2) socket.write(stray);
    },
  } as const;

  test.each(
    Object.keys(STRAY_VARIANTS).flatMap((variant) =>
      (['manual', 'follow'] as const).flatMap((redirect) =>
        (['POST 200', 'POST 204', 'POST 304', 'HEAD 200'] as const).map((kind) => ({
          variant,
          redirect,
          kind,
        })),
      ),
    ),
  )(
    'an answer sent unasked $variant ($kind, redirect $redirect) is never read as the next answer',
    async ({ variant, redirect, kind }) => {
      // Each request is answered with its own path (in a header, and in the body where it may have one), followed
      // by an answer nobody asked for; the stray pretends to answer whatever request comes next.
      const [method, status] = kind.split(' ') as [string, string];
      const send = STRAY_VARIANTS[variant as keyof typeof STRAY_VARIANTS];
      let mostOnOneConnection = 0;
      const raw = createTcpServer((socket) => {
        socket.on('error', () => undefined);
        let pending = '';
        let answered = 0;
        socket.on('data', (data) => {
          pending += data.toString('latin1');
          for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
            const head = pending.slice(0, end);
            const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
            if (pending.length < end + 4 + length) return;
            pending = pending.slice(end + 4 + length);
            const path = head.split(' ')[1] ?? '';
            answered++;
            mostOnOneConnection = Math.max(mostOnOneConnection, answered);
            const body = `answer for ${path}`;
            // A HEAD answer states the length of a body it does not send; a 204 or 304 has none.
            const answer =
              status === '200'
                ? `HTTP/1.1 200 OK\r\nx-answer: ${path}\r\ncontent-length: ${body.length}\r\n\r\n${method === 'HEAD' ? '' : body}`
                : `HTTP/1.1 ${status} Nothing\r\nx-answer: ${path}\r\n\r\n`;
            send(
              socket,
              answer,
              'HTTP/1.1 200 OK\r\nx-answer: stray\r\ncontent-length: 5\r\n\r\nSTRAY',
              answered,
            );
          }
        });
      });
      raw.listen(0, '127.0.0.1');
      await once(raw, 'listening');
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      const pool = createProviderFetch();
      try {
        for (let n = 1; n <= 8; n++) {
          const path = `/${n}`;
          const response = await pool.fetch(`${url}${path}`, {
            method,
            ...(method === 'HEAD' ? {} : { body: path }),
            redirect,
          });
          const text = await response.text();
          expect({ answer: response.headers.get('x-answer'), status: response.status, text }).toEqual({
            answer: path,
            status: Number(status),
            text: status === '200' && method !== 'HEAD' ? `answer for ${path}` : '',
          });
        }
        // How the pool keeps them apart: no connection carries a second request.
        expect(mostOnOneConnection).toBe(1);
      } finally {
        await pool.close();
        raw.close();
      }
    },
  );

  test('with reuseConnections, a well-behaved provider answers several requests on a connection', async () => {
    let connections = 0;
    const raw = createTcpServer((socket) => {
      connections++;
      socket.on('error', () => undefined);
      onRequests(socket, () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      });
    });
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
    const reusing = createProviderFetch({ reuseConnections: true });
    try {
      for (let n = 0; n < 4; n++) expect(await (await reusing.fetch(url, init())).text()).toBe('ok');
      // Without reuse every request opens its own connection (see the stray answers above).
      expect(connections).toBeLessThan(4);
    } finally {
      await reusing.close();
      raw.close();
    }
  });

  test('a status outside 200–599 fails as "fetch failed" (where the global fetch passes it on), its connection dropped', async () => {
    // The body never ends: reading it to its end would never finish.
    const raw = createTcpServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 999 Odd\r\ntransfer-encoding: chunked\r\n\r\n');
        const timer = setInterval(() => socket.write('4\r\nmore\r\n'), 5);
        socket.once('close', () => clearInterval(timer));
      });
    });
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
    expect(await failureOf(() => pool.fetch(url, init()))).toMatchObject({
      type: 'TypeError',
      message: 'fetch failed',
    });
    await expect.poll(() => connectionsOf(raw), { timeout: 20_000 }).toBe(0);
    raw.close();
  });

  test('a form body goes through the global fetch on the same pool, sent as multipart', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'audio/mpeg' }), 'audio.mp3');
    await (await pool.fetch(`${origin}/json`, init({ headers: {}, body: form }))).text();
    const multipart = seen.at(-1);
    expect(multipart?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipart?.body).toContain('name="model"');
    expect(multipart?.body).toContain('filename="audio.mp3"');
  });
});

describe('closing the pool', () => {
  test('refuses new requests, on either path, and its connections are gone', async () => {
    const pool = createProviderFetch();
    await (await pool.fetch(`${origin}/json`, { method: 'POST', body: '{}', redirect: 'manual' })).text();
    await (await pool.fetch(`${origin}/json`, { method: 'POST', body: '{}' })).text();
    await pool.close();
    // The global dispatcher would still answer: the refusals show both paths use this pool.
    await expect(
      pool.fetch(`${origin}/json`, { method: 'POST', body: '{}', redirect: 'manual' }),
    ).rejects.toThrow();
    await expect(pool.fetch(`${origin}/json`, { method: 'POST', body: '{}' })).rejects.toThrow();
    await expect.poll(() => connectionsOf(server), { timeout: 20_000 }).toBe(0);
  });

  test('a request still in flight fails, and its connection is destroyed', async () => {
    const hanging = createServer(() => undefined);
    hanging.listen(0, '127.0.0.1');
    await once(hanging, 'listening');
    const pool = createProviderFetch();
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    const pending = pool.fetch(url, { method: 'POST', body: '{}', redirect: 'manual' });
    await expect.poll(() => connectionsOf(hanging), { timeout: 20_000 }).toBe(1);
    await pool.close();
    await expect(pending).rejects.toThrow('fetch failed');
    await expect.poll(() => connectionsOf(hanging), { timeout: 20_000 }).toBe(0);
    hanging.close();
  });
});
