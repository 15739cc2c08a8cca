import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createProviderFetch } from '../../src/cli/commands/provider-fetch.js';

interface Seen {
  port: number | undefined;
  contentType: string | undefined;
  body: string;
}

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
    seen.push({
      port: request.socket.remotePort,
      contentType: request.headers['content-type'],
      body: await bodyOf(request),
    });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The connections the server holds open, read until they reach `count` (the client closing them is the signal). */
function connectionsOf(target: Server): Promise<number> {
  return new Promise((done, failed) =>
    target.getConnections((error, count) => (error ? failed(error) : done(count))),
  );
}

describe('createProviderFetch', () => {
  test('answers requests on its pool, and sends FormData as multipart', async () => {
    seen.length = 0;
    const pool = createProviderFetch();
    for (let i = 0; i < 3; i++) {
      const response = await pool.fetch(`${origin}/v1/chat`, { method: 'POST', body: '{"n":1}' });
      expect(await response.json()).toEqual({ ok: true });
    }
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'audio/mpeg' }), 'audio.mp3');
    await (await pool.fetch(`${origin}/v1/audio/transcriptions`, { method: 'POST', body: form })).text();
    expect(seen.map((request) => request.body.startsWith('{"n":1}'))).toEqual([true, true, true, false]);
    const multipart = seen.at(-1);
    expect(multipart?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipart?.body).toContain('name="model"');
    expect(multipart?.body).toContain('filename="audio.mp3"');
    await pool.close();
  });

  test('once closed, it refuses new requests and its connections are gone', async () => {
    const pool = createProviderFetch();
    await (await pool.fetch(`${origin}/v1/chat`, { method: 'POST', body: '{}' })).text();
    await pool.close();
    // The global dispatcher would still answer: the refusal shows the calls went through this pool.
    await expect(pool.fetch(`${origin}/v1/chat`, { method: 'POST', body: '{}' })).rejects.toThrow();
    await expect.poll(() => connectionsOf(server), { timeout: 20_000 }).toBe(0);
  });

  test('a request still in flight when it closes fails, and its connection is destroyed', async () => {
    const hanging = createServer(() => undefined);
    hanging.listen(0, '127.0.0.1');
    await once(hanging, 'listening');
    const pool = createProviderFetch();
    const pending = pool.fetch(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`);
    await expect.poll(() => connectionsOf(hanging), { timeout: 20_000 }).toBe(1);
    await pool.close();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => connectionsOf(hanging), { timeout: 20_000 }).toBe(0);
    hanging.close();
  });
});
