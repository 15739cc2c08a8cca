import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { GatewayEnv, RequestFacts } from '../pipeline/gateway-env.js';
import { createReadBody, jsonBodyOf } from './read-body.js';

const schema = z.strictObject({ model: z.string(), n: z.number().int().optional() });

function readingApp(options: { maxBytes?: number; logContent?: boolean } = {}) {
  const facts: RequestFacts = { route: '/v1/read', attempts: 0 };
  const bodies: { model: string; n?: number | undefined }[] = [];
  const app = new Hono<GatewayEnv>();
  app.use((c, next) => {
    c.set('traceId', 'trace-body');
    c.set('facts', facts);
    return next();
  });
  const readBody = createReadBody({
    maxBytes: options.maxBytes ?? 64,
    timeoutMs: 10_000,
    logContent: options.logContent,
    parse: jsonBodyOf(schema),
  });
  app.post('/v1/read', readBody, (c) => {
    const body = c.req.valid('json');
    bodies.push(body);
    return c.text(body.model);
  });
  const post = (body: string, headers: Record<string, string> = {}) =>
    app.request('/v1/read', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  return { post, bodies, facts };
}

describe('createReadBody', () => {
  test('hands the validated body to the handler through c.req.valid("json")', async () => {
    const { post, bodies, facts } = readingApp();
    const response = await post('{"model":"openai:gpt-4o-mini","n":2}');
    expect(await response.text()).toBe('openai:gpt-4o-mini');
    expect(bodies).toEqual([{ model: 'openai:gpt-4o-mini', n: 2 }]);
    expect(facts.input).toBeUndefined();
  });

  test('keeps the body for the log line only when content logging is on', async () => {
    const { post, facts } = readingApp({ logContent: true });
    await post('{"model":"m"}');
    expect(facts.input).toEqual({ model: 'm' });
  });

  test('refuses a body past the bound with PAYLOAD_TOO_LARGE (413), the handler never called', async () => {
    const { post, bodies } = readingApp({ maxBytes: 16 });
    const response = await post(JSON.stringify({ model: 'x'.repeat(32) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', details: { max_body_bytes: 16 } },
      metadata: { trace_id: 'trace-body' },
    });
    expect(bodies).toEqual([]);
  });

  test('refuses what the strict reader or the schema refuses, each problem with its JSON Pointer', async () => {
    const { post, bodies } = readingApp();
    const duplicate = await post('{"model":"a","model":"b"}');
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        details: {
          problems: [{ path: '', message: 'The root object names the member "model" more than once.' }],
        },
      },
    });
    const wrong = await post('{"model":1,"a/b":true}');
    const problems = ((await wrong.json()) as { error: { details: { problems: { path: string }[] } } }).error
      .details.problems;
    expect(problems.map((problem) => problem.path).sort()).toEqual(['/a~1b', '/model']);
    const broken = await post('{"model":');
    expect(broken.status).toBe(400);
    expect(bodies).toEqual([]);
  });

  test('gives a parse function the request, for bodies that are not JSON', async () => {
    const app = new Hono<GatewayEnv>();
    app.use((c, next) => {
      c.set('traceId', 't');
      c.set('facts', { route: '/v1/raw', attempts: 0 });
      return next();
    });
    const readBody = createReadBody({
      maxBytes: 64,
      timeoutMs: 10_000,
      parse: (bytes, c) => ({
        ok: true,
        value: { size: bytes.byteLength, type: c.req.header('content-type') },
      }),
    });
    app.post('/v1/raw', readBody, (c) => c.json(c.req.valid('json')));
    const response = await app.request('/v1/raw', {
      method: 'POST',
      body: new Uint8Array(5),
      headers: { 'content-type': 'audio/wav' },
    });
    expect(await response.json()).toEqual({ size: 5, type: 'audio/wav' });
  });
});
