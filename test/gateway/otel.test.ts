import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { readOtelSettings } from '../../src/gateway/config/otel-settings.js';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import type { GatewayTelemetry } from '../../src/gateway/middleware/load-telemetry.js';
import { loadTelemetry, telemetryLoads } from '../../src/gateway/middleware/load-telemetry.js';
import { OTEL_METRICS } from '../../src/gateway/observability/otel-names.js';
import { createKey, migrateStore, openStore } from '../../src/gateway/store/index.js';
import type { UnifiedOutput } from '../../src/unified/types.js';
import { memoryIo } from '../helpers/memory-io.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { ROOT } from '../support/ensure-build.js';
import { readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** Telemetry exporting to `url` with `env` over the standard variables. */
async function telemetryFor(url: string, env: Record<string, string> = {}, log?: (line: string) => void) {
  const read = readOtelSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: url, ...env });
  if (!read.ok || read.settings === undefined) throw new Error(`Bad settings: ${JSON.stringify(read)}`);
  return loadTelemetry(read.settings, { log });
}

function gatewayWith(telemetry: GatewayTelemetry | undefined, options: GatewayOptions = {}) {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retryBaseMs: 1,
    retries: 0,
    telemetry,
    ...options,
  });
}

function post(
  gateway: ReturnType<typeof createGateway>,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    gateway.request('/v1/text', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );
}

/** The spans of one trace: its server span and its client spans in the order they started. */
function treeOf(receiver: OtlpReceiver, traceId: string): { server: ReceivedSpan; clients: ReceivedSpan[] } {
  const spans = receiver.spans.filter((span) => span.traceId === traceId);
  const servers = spans.filter((span) => span.kind === SERVER);
  expect(servers).toHaveLength(1);
  const server = servers[0] as ReceivedSpan;
  const clients = spans.filter((span) => span.kind === CLIENT).sort((a, b) => (a.start < b.start ? -1 : 1));
  expect(spans).toHaveLength(1 + clients.length);
  for (const client of clients) {
    expect(client.parentSpanId).toBe(server.spanId);
    expect(client.start >= server.start).toBe(true);
    expect(client.end <= server.end).toBe(true);
  }
  return { server, clients };
}

/** Now, in the nanoseconds of the spans' clock. */
function nowNanos(): bigint {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
}

/** Received spans as text, to search for what must not be there. */
function shown(spans: readonly ReceivedSpan[]): string {
  return JSON.stringify(spans, (_key, value) => (typeof value === 'bigint' ? String(value) : value));
}

/** The `traceparent` each provider request carried, in order. */
function providerTraceparents(): (string | undefined)[] {
  return replay.requests.map((request) => request.headers.traceparent);
}

describe.each(['http/protobuf', 'http/json'] as const)('OpenTelemetry export over %s', (protocol) => {
  let receiver: OtlpReceiver;
  let telemetry: GatewayTelemetry;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    telemetry = await telemetryFor(receiver.url, {
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_SERVICE_NAME: 'gateway-under-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=abc%20def',
    });
  });
  afterAll(async () => {
    await telemetry.shutdown();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.spans.length = 0;
    receiver.metrics.length = 0;
    receiver.requests.length = 0;
  });

  test('a plain call is one server span with one client span named and attributed by the GenAI conventions', async () => {
    const gateway = gatewayWith(telemetry);
    const response = await post(gateway, {
      model: 'openai:gpt-4o-mini',
      input: 'Hi',
      temperature: 0.25,
      max_tokens: 50,
    });
    const envelope = (await response.json()) as UnifiedOutput;
    expect(envelope.success).toBe(true);
    await gateway.flush();
    const traceId = response.headers.get('x-trace-id') as string;
    const { server, clients } = treeOf(receiver, traceId);
    expect(server.parentSpanId).toBe('');
    expect(server).toMatchObject({
      name: 'POST /v1/text',
      status: { code: 0 },
      resource: { 'service.name': 'gateway-under-test', 'deployment.environment.name': 'test' },
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/v1/text',
        'http.response.status_code': 200,
        'verdict.trace_id': traceId,
        'verdict.attempts': 1,
        'verdict.target': 'openai:gpt-4o-mini',
      },
    });
    expect(server.attributes['error.type']).toBeUndefined();
    expect(clients).toHaveLength(1);
    const [client] = clients as [ReceivedSpan];
    const details = envelope.metadata.usage_details ?? {};
    expect(client).toMatchObject({
      name: 'chat gpt-4o-mini',
      status: { code: 0 },
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.system': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.request.temperature': 0.25,
        'gen_ai.request.max_tokens': 50,
        'gen_ai.output.type': 'text',
        'gen_ai.response.model': envelope.metadata.model,
        'gen_ai.response.id': envelope.metadata.response_id,
        'gen_ai.response.finish_reasons': [envelope.metadata.finish_reason],
        'gen_ai.usage.input_tokens': envelope.success ? envelope.usage.input_tokens : -1,
        'gen_ai.usage.output_tokens': envelope.success ? envelope.usage.output_tokens : -1,
        'gen_ai.usage.cache_read.input_tokens': details.cached_input_tokens,
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(replay.url).port),
        'verdict.trace_id': traceId,
        'verdict.target': 'openai:gpt-4o-mini',
        'verdict.attempt': 1,
      },
    });
    expect(details.cached_input_tokens).toBeGreaterThan(0);
    // The call's price, as the envelope states it (docs/gateway.md, "Prices").
    expect(envelope.metadata.cost?.usd).toBeGreaterThan(0);
    expect(client.attributes['verdict.cost_usd']).toBe(envelope.metadata.cost?.usd);
    // The OpenTelemetry trace id is the gateway's, and the provider call carries the attempt span's context.
    expect(client.traceId).toBe(traceId);
    expect(envelope.metadata.trace_id).toBe(traceId);
    expect(providerTraceparents()).toEqual([`00-${traceId}-${client.spanId}-01`]);
    // Exports go where the settings say, in their encoding, with their headers.
    const traces = receiver.requests.find((request) => request.path === '/v1/traces');
    expect(traces?.contentType).toContain(protocol === 'http/json' ? 'json' : 'protobuf');
    expect(traces?.headers['x-collector-key']).toBe('abc def');
  });

  test('the GenAI metrics arrive with their documented buckets', async () => {
    const gateway = gatewayWith(telemetry);
    const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi' });
    const envelope = (await response.json()) as UnifiedOutput;
    await gateway.flush();
    const duration = receiver.metrics.find((metric) => metric.name === OTEL_METRICS.operationDuration.name);
    expect(duration).toMatchObject({ unit: 's' });
    expect(duration?.points[0]?.bounds).toEqual([...OTEL_METRICS.operationDuration.buckets]);
    expect(duration?.points[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
    });
    const tokens = receiver.metrics.find((metric) => metric.name === OTEL_METRICS.tokenUsage.name);
    expect(tokens?.unit).toBe('{token}');
    expect(tokens?.points[0]?.bounds).toEqual([...OTEL_METRICS.tokenUsage.buckets]);
    const input = tokens?.points.find((point) => point.attributes['gen_ai.token.type'] === 'input');
    const output = tokens?.points.find((point) => point.attributes['gen_ai.token.type'] === 'output');
    expect(envelope.success).toBe(true);
    if (!envelope.success) return;
    expect(input?.sum).toBeGreaterThanOrEqual(envelope.usage.input_tokens);
    expect(output?.sum).toBeGreaterThanOrEqual(envelope.usage.output_tokens);
  });

  test('a streamed call ends its spans after the last event, with its time to first token', async () => {
    const gateway = gatewayWith(telemetry);
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { eventDelayMs: 20 }));
    const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi', stream: true });
    const text = await response.text();
    const readAt = nowNanos();
    expect(readStreamEnvelope(text).envelope.success).toBe(true);
    await gateway.idle();
    await gateway.flush();
    const { server, clients } = treeOf(receiver, response.headers.get('x-trace-id') as string);
    const [client] = clients as [ReceivedSpan];
    expect(clients).toHaveLength(1);
    // The last event was read before `readAt`; the spans ended once it was written, not at the first byte.
    const firstToken = client.attributes['verdict.time_to_first_token_s'] as number;
    expect(firstToken).toBeGreaterThan(0);
    expect(BigInt(Math.round(firstToken * 1e9)) < client.end - client.start).toBe(true);
    expect(server.end <= readAt).toBe(true);
    expect(client.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    const ttft = receiver.metrics.find((metric) => metric.name === OTEL_METRICS.timeToFirstToken.name);
    expect(ttft?.points[0]?.bounds).toEqual([...OTEL_METRICS.timeToFirstToken.buckets]);
  });

  test('a retried call and a fallback are sibling attempt spans, each carried in its own traceparent', async () => {
    const gateway = gatewayWith(telemetry, {
      retries: 1,
      aliases: { smart: ['anthropic:claude-x', 'openai:gpt-4o-mini'] },
    });
    replay.enqueue(
      fixture('anthropic.messages/PROVIDER_UNAVAILABLE/overloaded-529.json'),
      fixture('anthropic.messages/PROVIDER_UNAVAILABLE/overloaded-529.json'),
      fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'),
    );
    const response = await post(gateway, { model: 'smart', input: 'Hi' });
    const envelope = (await response.json()) as UnifiedOutput;
    expect(envelope).toMatchObject({ success: true, metadata: { attempts: 4 } });
    await gateway.flush();
    const traceId = response.headers.get('x-trace-id') as string;
    const { server, clients } = treeOf(receiver, traceId);
    expect(
      clients.map((span) => [span.attributes['verdict.attempt'], span.attributes['gen_ai.provider.name']]),
    ).toEqual([
      [1, 'anthropic'],
      [2, 'anthropic'],
      [3, 'openai'],
      [4, 'openai'],
    ]);
    expect(clients.map((span) => span.attributes['error.type'])).toEqual([
      'PROVIDER_UNAVAILABLE',
      'PROVIDER_UNAVAILABLE',
      'RATE_LIMITED',
      undefined,
    ]);
    expect(clients.map((span) => span.status.code)).toEqual([ERROR, ERROR, ERROR, 0]);
    for (let index = 1; index < clients.length; index++) {
      expect((clients[index - 1] as ReceivedSpan).end <= (clients[index] as ReceivedSpan).start).toBe(true);
    }
    expect(providerTraceparents()).toEqual(clients.map((span) => `00-${traceId}-${span.spanId}-01`));
    expect(server.attributes).toMatchObject({
      'verdict.attempts': 4,
      'verdict.target': 'openai:gpt-4o-mini',
    });
  });

  test('a failure sets error.type to the code on both spans and marks the attempt as an error', async () => {
    const gateway = gatewayWith(telemetry);
    replay.enqueue(fixture('openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json'));
    const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi' });
    expect(response.status).toBe(401);
    await gateway.flush();
    const { server, clients } = treeOf(receiver, response.headers.get('x-trace-id') as string);
    expect(clients).toHaveLength(1);
    expect(clients[0]).toMatchObject({
      status: { code: ERROR },
      attributes: { 'error.type': 'AUTHENTICATION_ERROR' },
    });
    expect(clients[0]?.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    // The HTTP server span is an error only for the gateway's own failures (5xx).
    expect(server).toMatchObject({
      status: { code: 0 },
      attributes: { 'error.type': 'AUTHENTICATION_ERROR', 'http.response.status_code': 401 },
    });
  });

  test('a stream cut mid-way ends its attempt as failed after the text it gave', async () => {
    const gateway = gatewayWith(telemetry);
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { dropAfterEvents: 3, eventDelayMs: 20 }));
    const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi', stream: true });
    const streamed = readStreamEnvelope(await response.text());
    expect(streamed.deltas.length).toBeGreaterThan(0);
    expect(streamed.envelope.success).toBe(false);
    await gateway.idle();
    await gateway.flush();
    const { server, clients } = treeOf(receiver, response.headers.get('x-trace-id') as string);
    const code = streamed.envelope.success ? 'ok' : streamed.envelope.error.code;
    expect(clients[0]).toMatchObject({ status: { code: ERROR }, attributes: { 'error.type': code } });
    expect(clients[0]?.attributes['verdict.time_to_first_token_s']).toBeGreaterThan(0);
    expect(server.attributes['error.type']).toBe(code);
  });

  test('a client that goes away mid-stream ends the spans as client_closed', async () => {
    const gateway = gatewayWith(telemetry);
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { eventDelayMs: 200 }));
    const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi', stream: true });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await gateway.idle();
    await gateway.flush();
    const { server, clients } = treeOf(receiver, response.headers.get('x-trace-id') as string);
    expect(clients[0]?.attributes['error.type']).toBe('client_closed');
    expect(server.attributes).toMatchObject({
      'error.type': 'client_closed',
      'http.response.status_code': 499,
    });
  });

  test("a caller's traceparent makes the server span its child", async () => {
    const gateway = gatewayWith(telemetry);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const response = await post(
      gateway,
      { model: 'openai:gpt-4o-mini', input: 'Hi' },
      { traceparent: `00-${traceId}-${parent}-01` },
    );
    expect(response.status).toBe(200);
    await gateway.flush();
    const { server, clients } = treeOf(receiver, traceId);
    expect(server.parentSpanId).toBe(parent);
    expect(providerTraceparents()).toEqual([`00-${traceId}-${clients[0]?.spanId}-01`]);
  });

  test("a caller's unsampled trace exports nothing and stays unsampled at the provider", async () => {
    const gateway = gatewayWith(telemetry);
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
    const response = await post(
      gateway,
      { model: 'openai:gpt-4o-mini', input: 'Hi' },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-00` },
    );
    expect(response.status).toBe(200);
    await gateway.flush();
    expect(receiver.spans.filter((span) => span.traceId === traceId)).toEqual([]);
    expect(providerTraceparents()[0]).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
  });

  test('the accepted key is named on the server span, never shown', async () => {
    const store = await openStore(':memory:');
    try {
      await migrateStore(store);
      const { key } = await createKey(store, 'team-a', {});
      const gateway = gatewayWith(telemetry, { store });
      const response = await post(
        gateway,
        { model: 'openai:gpt-4o-mini', input: 'Hi' },
        { authorization: `Bearer ${key}` },
      );
      expect(response.status).toBe(200);
      await gateway.flush();
      const { server } = treeOf(receiver, response.headers.get('x-trace-id') as string);
      expect(server.attributes['verdict.key_name']).toBe('team-a');
      expect(shown(receiver.spans)).not.toContain(key);
    } finally {
      await store.close();
    }
  });

  test('content is not captured unless asked for', async () => {
    const gateway = gatewayWith(telemetry);
    const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'A private question' });
    await response.text();
    await gateway.flush();
    const { clients } = treeOf(receiver, response.headers.get('x-trace-id') as string);
    expect(clients[0]?.events).toEqual([]);
    expect(shown(receiver.spans)).not.toContain('A private question');
  });
});

describe('OpenTelemetry content capture and conventions', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiver.spans.length = 0;
    receiver.metrics.length = 0;
  });

  test('captured prompts and answers are span events, redacted as log lines are', async () => {
    const telemetry = await telemetryFor(receiver.url, {
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    const gateway = gatewayWith(telemetry);
    const response = await post(gateway, {
      model: 'openai:gpt-4o-mini',
      input: 'My key is sk-replay-openai-secret, is that bad?',
    });
    const envelope = (await response.json()) as UnifiedOutput;
    await gateway.flush();
    await telemetry.shutdown();
    const { clients } = treeOf(receiver, response.headers.get('x-trace-id') as string);
    const events = clients[0]?.events ?? [];
    expect(events.map((event) => event.name)).toEqual(['gen_ai.content.prompt', 'gen_ai.content.completion']);
    const prompt = JSON.parse(events[0]?.attributes['gen_ai.prompt'] as string);
    expect(prompt).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'My key is [redacted], is that bad?' }] },
    ]);
    const completion = JSON.parse(events[1]?.attributes['gen_ai.completion'] as string);
    expect(completion[0]).toMatchObject({
      role: 'assistant',
      parts: [{ type: 'text', content: envelope.success ? envelope.content : '' }],
    });
    expect(shown(receiver.spans)).not.toContain('sk-replay-openai-secret');
  });

  test('the stability opt-in switches to the latest names: message attributes, no gen_ai.system', async () => {
    const telemetry = await telemetryFor(receiver.url, {
      OTEL_SEMCONV_STABILITY_OPT_IN: 'http,gen_ai_latest_experimental',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    const gateway = gatewayWith(telemetry);
    replay.enqueue(fixture('openai.chat/success/stream-text.json'));
    const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi', stream: true });
    await response.text();
    await gateway.idle();
    await gateway.flush();
    await telemetry.shutdown();
    const { clients } = treeOf(receiver, response.headers.get('x-trace-id') as string);
    const client = clients[0] as ReceivedSpan;
    expect(client.events).toEqual([]);
    expect(client.attributes['gen_ai.system']).toBeUndefined();
    expect(client.attributes['gen_ai.provider.name']).toBe('openai');
    expect(JSON.parse(client.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Hi' }] },
    ]);
    expect(JSON.parse(client.attributes['gen_ai.output.messages'] as string)[0]).toMatchObject({
      role: 'assistant',
      finish_reason: 'stop',
    });
    const names = receiver.metrics.map((metric) => metric.name);
    expect(names).toContain(OTEL_METRICS.timeToFirstChunk.name);
    expect(names).not.toContain(OTEL_METRICS.timeToFirstToken.name);
  });
});

describe('OpenTelemetry off, and a collector that is down or stalled', () => {
  test('without an endpoint nothing OpenTelemetry is loaded; with one in env it is loaded and exports', async () => {
    const before = telemetryLoads();
    const off = gatewayWith(undefined, { env: { OTEL_SERVICE_NAME: 'no-endpoint' } });
    expect((await post(off, { model: 'openai:gpt-4o-mini', input: 'Hi' })).status).toBe(200);
    await off.flush();
    expect(telemetryLoads()).toBe(before);

    const receiver = await startOtlpReceiver();
    try {
      const on = gatewayWith(undefined, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
      await on.ready();
      expect(telemetryLoads()).toBe(before + 1);
      const response = await post(on, { model: 'openai:gpt-4o-mini', input: 'Hi' });
      expect(response.status).toBe(200);
      await on.flush();
      expect(treeOf(receiver, response.headers.get('x-trace-id') as string).clients).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  test('no source file imports OpenTelemetry at load time: only `import type` and the lazy loader', () => {
    const files: string[] = [];
    const walk = (folder: string) => {
      for (const name of readdirSync(folder)) {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
      }
    };
    walk(join(ROOT, 'src'));
    const offenders = files.filter((file) =>
      /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s*['"]@opentelemetry\//m.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
    const loader = readFileSync(join(ROOT, 'src/gateway/middleware/load-telemetry.ts'), 'utf8');
    expect(loader).toMatch(/import\('@opentelemetry\/sdk-trace-base'\)/);
  });

  test('an unreachable collector leaves answers alone and costs one warning', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lines: string[] = [];
    const telemetry = await telemetryFor(
      `http://127.0.0.1:${port}`,
      {
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2',
        OTEL_BSP_SCHEDULE_DELAY: '1',
        OTEL_EXPORTER_OTLP_TIMEOUT: '300',
      },
      (line) => lines.push(line),
    );
    const gateway = gatewayWith(telemetry);
    for (let index = 0; index < 12; index++) {
      const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi' });
      expect(response.status).toBe(200);
    }
    await gateway.flush();
    await telemetry.shutdown();
    const warnings = lines
      .map((line) => JSON.parse(line))
      .filter((line) => line.event === 'otel_export_failed');
    // Many exports failed; each signal said so once.
    expect(warnings.filter((line) => line.signal === 'traces')).toHaveLength(1);
    expect(warnings.filter((line) => line.signal === 'metrics').length).toBeLessThanOrEqual(1);
    expect(warnings.find((line) => line.signal === 'traces')).toMatchObject({
      signal: 'traces',
      endpoint: `http://127.0.0.1:${port}/v1/traces`,
    });
  });

  test('a stalled collector does not queue more than its bound: spans past it are dropped', async () => {
    const receiver = await startOtlpReceiver();
    const release = receiver.hold();
    try {
      const telemetry = await telemetryFor(receiver.url, {
        OTEL_BSP_MAX_QUEUE_SIZE: '8',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4',
        OTEL_METRICS_EXPORTER: 'none',
      });
      const gateway = gatewayWith(telemetry);
      const requests = 30;
      for (let index = 0; index < requests; index++) {
        const response = await post(gateway, { model: 'openai:gpt-4o-mini', input: 'Hi' });
        expect(response.status).toBe(200);
      }
      release();
      await telemetry.flush();
      await telemetry.shutdown();
      // At most two export requests of four spans in flight, and eight spans queued: the rest were dropped.
      expect(receiver.spans.length).toBeGreaterThan(0);
      expect(receiver.spans.length).toBeLessThanOrEqual(8 + 2 * 4);
      expect(receiver.spans.length).toBeLessThan(requests * 2);
    } finally {
      release();
      await receiver.close();
    }
  });
});

describe('verdict gateway --otel-endpoint', () => {
  test('traces the first request, and exports what it holds when it stops', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const controller = new AbortController();
      const io = memoryIo({
        env: {
          OPENAI_API_KEY: 'sk-env-openai-secret',
          OPENAI_BASE_URL: replay.baseURL.openai,
          // Nothing is exported on a schedule within the test: only the stop's flush sends the spans.
          OTEL_BSP_SCHEDULE_DELAY: '600000',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        },
        signal: controller.signal,
      });
      const exit = run(['gateway', '--port', '0', '--otel-endpoint', receiver.url], io);
      await expect.poll(() => /serving on http/.test(io.stderr.text()), { timeout: 20_000 }).toBe(true);
      const url = /serving on (http:\/\/[^ ]+)/.exec(io.stderr.text())?.[1] as string;
      const response = await fetch(`${url}/v1/text`, {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
      });
      expect(response.status).toBe(200);
      await response.text();
      expect(receiver.spans).toEqual([]);
      controller.abort();
      expect(await exit).toBe(0);
      expect(treeOf(receiver, response.headers.get('x-trace-id') as string).clients).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  test('a bad endpoint is a configuration error, exit 2', async () => {
    const io = memoryIo({ env: { OPENAI_API_KEY: 'sk-env-openai-secret' } });
    const status = await run(['gateway', '--check-config', '--otel-endpoint', 'ftp://collector'], io);
    expect(status).toBe(2);
    expect(io.stderr.text() + io.stdout.text()).toContain('OpenTelemetry: The OTLP endpoint must be an http');
  });
});
