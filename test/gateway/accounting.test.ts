import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { type FaultProvider, startFaultProvider } from '../helpers/fault-provider.js';
import { readEnvelope } from './envelope-assertions.js';

let faults: FaultProvider;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  faults = await startFaultProvider();
});
beforeEach(() => faults.reset());
afterAll(() => faults.close());

function gatewayFor(options: GatewayOptions = {}) {
  const lines: string[] = [];
  const gateway = createGateway({
    providers: {
      ...faults.providers(),
      google: { baseURL: faults.baseURL, apiKey: 'google-key-0123456789' },
    },
    retries: 0,
    log: (line) => lines.push(line),
    ...options,
  });
  return { gateway, lines, logged: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

function post(path: string, body: unknown, init: RequestInit = {}): Request {
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });
}

/** A request whose body sends `first` and then errors (the client went away mid-body) or never ends. */
function bodyThat(ending: 'errors' | 'hangs'): Request {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"model":"faulty:ok","input":"'));
      if (ending === 'errors') setTimeout(() => controller.error(new Error('socket hang up')), 10);
    },
  });
  return new Request('http://localhost/v1/text', {
    method: 'POST',
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

describe('what the gateway counts as whose doing', () => {
  test('a client that stops sending its body mid-way is logged and counted as client_closed, not 500', async () => {
    const { gateway, logged } = gatewayFor();
    await gateway.fetch(bodyThat('errors'));
    expect(logged().at(-1)).toMatchObject({ route: '/v1/text', status: 499, code: 'client_closed' });
    const metrics = await (await gateway.request('/metrics')).text();
    expect(metrics).toContain('route="/v1/text",status="499",code="client_closed"');
    expect(metrics).not.toContain('INTERNAL_ERROR');
  });

  test('a body slower than bodyTimeoutMs is answered REQUEST_TIMEOUT (408), and the connection ends', async () => {
    const { gateway, logged } = gatewayFor({ bodyTimeoutMs: 200 });
    const answer = await readEnvelope(await gateway.fetch(bodyThat('hangs')));
    expect(answer.status).toBe(408);
    expect(answer.envelope).toMatchObject({
      error: { code: 'REQUEST_TIMEOUT', details: { body_timeout_ms: 200 } },
    });
    expect(answer.headers.get('connection')).toBe('close');
    expect(logged().at(-1)).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
  });

  test('a client that leaves while queued is counted as client_closed, not 429', async () => {
    const { gateway, logged } = gatewayFor({ concurrency: 1, upstream: { firstByteTimeoutMs: 60_000 } });
    const holder = new AbortController();
    const holding = gateway.fetch(
      post('/v1/text', { model: 'faulty:slow-first-byte', input: 'x' }, { signal: holder.signal }),
    );
    await expect.poll(() => faults.requests.length).toBe(1);
    const leaver = new AbortController();
    const leaving = gateway.fetch(
      post('/v1/text', { model: 'faulty:ok', input: 'x' }, { signal: leaver.signal }),
    );
    await expect
      .poll(async () =>
        (await (await gateway.request('/metrics')).text()).includes('verdict_gateway_queued 1'),
      )
      .toBe(true);
    leaver.abort();
    await leaving;
    holder.abort();
    await holding;
    const codes = logged()
      .filter((line) => line.route === '/v1/text')
      .map((line) => `${line.status} ${line.code}`);
    expect(codes).toEqual(['499 client_closed', '499 client_closed']);
    expect(faults.requests.map((request) => request.model)).toEqual(['slow-first-byte']);
  });

  test('time spent queued counts toward the deadline', async () => {
    const { gateway } = gatewayFor({
      concurrency: 1,
      routes: { images: { timeoutMs: 5000 }, text: { timeoutMs: 300 } },
    });
    // An image request holds the only place for 5 s; the text request's 300 ms pass while it waits.
    const holder = new AbortController();
    const holding = gateway.fetch(
      post('/v1/images', { model: 'faulty:slow-first-byte', prompt: 'x' }, { signal: holder.signal }),
    );
    await expect.poll(() => faults.requests.length).toBe(1);
    const answer = await readEnvelope(
      await gateway.fetch(post('/v1/text', { model: 'faulty:ok', input: 'x' })),
    );
    expect(answer.envelope).toMatchObject({
      error: { code: 'PROVIDER_TIMEOUT', details: { timeout_ms: 300, queued: true } },
    });
    holder.abort();
    await holding;
    expect(faults.requests.map((request) => request.model)).toEqual(['slow-first-byte']);
  });

  test('a forged video job id is NOT_FOUND and reaches no provider', async () => {
    const { gateway } = gatewayFor();
    const forged = [
      { target: 'google:veo-3', operation: { operationName: '../../v1/chat/completions' } },
      { target: 'google:veo-3', operation: { operationName: 5 } },
      { target: 'google:veo-3', operation: 'x' },
      { target: 'nope:x', operation: {} },
    ];
    for (const job of forged) {
      const id = Buffer.from(JSON.stringify(job)).toString('base64url');
      const answer = await readEnvelope(await gateway.request(`/v1/videos/${id}`));
      expect(answer.envelope).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect(faults.requests).toEqual([]);
  });
});

describe('gateway keys', () => {
  test('the same 16-character minimum holds for keys from VERDICT_GATEWAY_KEYS', () => {
    expect(() => createGateway({ env: { VERDICT_GATEWAY_KEYS: 'a,b' } })).toThrow(/at least 16 characters/);
    expect(() => createGateway({ keys: ['short'] })).toThrow(/at least 16 characters/);
    expect(() => createGateway({ env: { VERDICT_GATEWAY_KEYS: 'a-key-of-sixteen-chars' } })).not.toThrow();
  });
});
