import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { createRedactor } from '../basics/redact-secrets.js';
import { GatewayMetrics } from '../observability/metrics.js';
import {
  type GatewayEnv,
  type RequestFacts,
  respond,
  systemFailure,
  systemSuccess,
} from '../pipeline/gateway-env.js';
import { createRequestLog } from './request-log.js';

const SECRET = 'sk-provider-secret-0123456789';

function loggedApp(options: { logContent?: boolean } = {}) {
  const lines: Record<string, unknown>[] = [];
  const finished: { route: string; status: number }[] = [];
  const metrics = new GatewayMetrics();
  const app = new Hono<GatewayEnv>();
  let end = () => {};
  app.use((c, next) => {
    c.set('traceId', 'trace-log');
    return next();
  });
  app.use(
    createRequestLog({
      metrics,
      redactor: createRedactor([SECRET]),
      routeOf: (path) => (path.startsWith('/v1/') ? path : 'other'),
      log: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
      logContent: options.logContent,
      onFinish: (_c, facts, status) => finished.push({ route: facts.route, status }),
    }),
  );
  app.get('/v1/ok', (c) => {
    const facts = c.get('facts');
    facts.attempts = 1;
    facts.input = { prompt: 'hello' };
    facts.content = 'hi';
    return respond(c, { ...systemSuccess('hi', c.get('traceId'), {}), provider: 'openai' });
  });
  app.get('/v1/leaky', (c) =>
    respond(c, systemFailure('PROVIDER_ERROR', `The provider refused ${SECRET}.`, c.get('traceId'))),
  );
  app.get('/v1/stream', (c) => {
    c.get('facts').pending = new Promise<void>((resolve) => {
      end = resolve;
    });
    c.get('facts').code = 'ok';
    return c.text('streaming');
  });
  app.get('/v1/gone', (c) => {
    c.get('facts').clientClosed = true;
    return respond(c, systemFailure('REQUEST_TIMEOUT', 'The client went away.', c.get('traceId')));
  });
  return { app, lines, finished, metrics, end: () => end() };
}

describe('createRequestLog', () => {
  test('writes one line per request with the facts the route gathered, and counts it', async () => {
    const { app, lines, finished, metrics } = loggedApp();
    await app.request('/v1/ok');
    expect(lines).toEqual([
      expect.objectContaining({
        trace_id: 'trace-log',
        method: 'GET',
        route: '/v1/ok',
        status: 200,
        code: 'ok',
        provider: 'openai',
        attempts: 1,
        usage: { input_tokens: 0, output_tokens: 0 },
      }),
    ]);
    expect(lines[0]).not.toHaveProperty('input');
    expect(finished).toEqual([{ route: '/v1/ok', status: 200 }]);
    expect(metrics.render({ inFlight: 0, queued: 0 })).toContain(
      'verdict_gateway_requests_total{route="/v1/ok",status="200",code="ok"} 1',
    );
  });

  test('logs the request and the output only when content logging is on', async () => {
    const { app, lines } = loggedApp({ logContent: true });
    await app.request('/v1/ok');
    expect(lines[0]).toMatchObject({ input: { prompt: 'hello' }, content: 'hi' });
  });

  test('labels unknown paths "other" and redacts secrets from the line', async () => {
    const { app, lines, metrics } = loggedApp();
    await app.request('/anything/at/all');
    await app.request('/v1/leaky');
    expect(lines.map((line) => [line.route, line.status])).toEqual([
      ['other', 404],
      ['/v1/leaky', 502],
    ]);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(metrics.render({ inFlight: 0, queued: 0 })).toContain(
      'verdict_gateway_requests_total{route="other",status="404",code="INTERNAL_ERROR"} 1',
    );
  });

  test("waits for a stream's end before writing its line", async () => {
    const { app, lines, end } = loggedApp();
    const response = await app.request('/v1/stream');
    expect(await response.text()).toBe('streaming');
    expect(lines).toEqual([]);
    end();
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(lines).toEqual([expect.objectContaining({ route: '/v1/stream', status: 200, code: 'ok' })]);
  });

  test('counts a client that went away as 499 client_closed, not as a failure of the gateway', async () => {
    const { app, lines, finished } = loggedApp();
    await app.request('/v1/gone');
    expect(lines[0]).toMatchObject({ status: 499, code: 'client_closed' });
    expect(finished).toEqual([{ route: '/v1/gone', status: 499 }]);
  });

  test('gives respond the facts and the redactor it needs', async () => {
    const facts: RequestFacts[] = [];
    const app = new Hono<GatewayEnv>();
    app.use(
      createRequestLog({
        metrics: new GatewayMetrics(),
        redactor: createRedactor([SECRET]),
        routeOf: () => 'x',
      }),
    );
    app.get('/', (c) => {
      c.set('traceId', 't');
      facts.push(c.get('facts'));
      return respond(c, systemFailure('PROVIDER_ERROR', SECRET, 't'));
    });
    const body = await (await app.request('/')).text();
    expect(body).not.toContain(SECRET);
    expect(facts).toEqual([
      expect.objectContaining({ route: 'x', code: 'PROVIDER_ERROR', provider: 'system' }),
    ]);
  });
});
