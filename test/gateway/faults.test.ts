import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { type FaultProvider, startFaultProvider } from '../helpers/fault-provider.js';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';

const KEY = 'sk-fault-provider-key-0123456789';
let faults: FaultProvider;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  faults = await startFaultProvider();
});
beforeEach(() => faults.reset());
afterAll(() => faults.close());

/** A gateway in front of the fault provider, with small bounds so a test stays quick. */
function gatewayFor(options: GatewayOptions = {}) {
  const lines: string[] = [];
  const gateway = createGateway({
    providers: faults.providers(KEY),
    retries: 0,
    upstream: { maxEventBytes: 256 * 1024, maxResponseBytes: 4 * 1024 * 1024, maxStreamEvents: 500 },
    log: (line) => lines.push(line),
    ...options,
  });
  return { gateway, lines };
}

/** A POST of `body` as JSON. */
function posted(body: Record<string, unknown>) {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function text(model: string, extra: Record<string, unknown> = {}) {
  return posted({ model, input: 'Say hi', ...extra });
}

describe('the gateway in front of a faulty provider', () => {
  test('an SSE line that never ends fails with INVALID_PROVIDER_RESPONSE naming the bound, and the upstream request is aborted', async () => {
    const { gateway } = gatewayFor();
    for (const provider of ['faulty', 'faulty-anthropic']) {
      const answer = await readEnvelope(
        await gateway.request('/v1/text', text(`${provider}:endless-line`, { stream: true })),
      );
      expect(answer.envelope).toMatchObject({
        success: false,
        error: { code: 'INVALID_PROVIDER_RESPONSE', details: { bound: 'max_event_bytes' } },
      });
    }
    await faults.waitForAborts(2);
  });

  test('a non-stream body that never ends, declares 2 GB, or decodes past the bound fails with max_response_bytes', async () => {
    const { gateway } = gatewayFor();
    for (const model of ['faulty:endless-body', 'faulty:huge-body', 'faulty:gzip-bomb']) {
      const answer = await readEnvelope(await gateway.request('/v1/text', text(model)));
      expect(answer.envelope).toMatchObject({
        success: false,
        error: {
          code: 'INVALID_PROVIDER_RESPONSE',
          details: { bound: 'max_response_bytes', max_response_bytes: 4 * 1024 * 1024 },
        },
      });
    }
    await faults.waitForAborts(2);
  });

  test('a compressed answer that decodes past the gateway-wide byte budget fails as a provider fault naming it', async () => {
    const { gateway } = gatewayFor({
      upstream: { maxResponseBytes: 4 * 1024 * 1024, maxInFlightBytes: 1024 * 1024 },
    });
    const answer = await readEnvelope(await gateway.request('/v1/text', text('faulty:gzip-bomb')));
    expect(answer.status).toBe(503);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'faulty',
      error: {
        code: 'PROVIDER_UNAVAILABLE',
        details: { bound: 'max_in_flight_bytes', max_in_flight_bytes: 1024 * 1024, is_retryable: false },
      },
    });
    // What the call held is given back: the next answer fits again.
    expect((await readEnvelope(await gateway.request('/v1/text', text('faulty:ok')))).status).toBe(200);
  });

  test('a stream past its event bound fails with max_stream_events', async () => {
    const { gateway } = gatewayFor();
    const response = await gateway.request('/v1/text', text('faulty:many-events', { stream: true }));
    const answer = await readEnvelope(response);
    expect(answer.envelope).toMatchObject({ error: { details: { bound: 'max_stream_events' } } });
  });

  test('a stream that ends without the end signal is never a success (OpenAI and Anthropic)', async () => {
    const { gateway } = gatewayFor();
    for (const provider of ['faulty', 'faulty-anthropic']) {
      const response = await gateway.request(
        '/v1/text',
        text(`${provider}:truncated-stream`, { stream: true }),
      );
      expect(response.status).toBe(200);
      const { deltas, envelope } = readStreamEnvelope(await response.text());
      expect(deltas.join('')).toBe('Half an');
      expect(envelope).toMatchObject({
        success: false,
        provider,
        error: {
          code: 'INVALID_PROVIDER_RESPONSE',
          details: { reason: 'no_end_of_answer', is_retryable: true },
        },
      });
    }
  });

  test('the same stream with its end signal is a success', async () => {
    const { gateway } = gatewayFor();
    for (const provider of ['faulty', 'faulty-anthropic']) {
      const response = await gateway.request('/v1/text', text(`${provider}:ok`, { stream: true }));
      const { envelope } = readStreamEnvelope(await response.text());
      expect(envelope).toMatchObject({ success: true, content: 'Hi.' });
    }
  });

  test('a connection reset mid-stream ends the stream as a cut stream: INVALID_PROVIDER_RESPONSE', async () => {
    const { gateway } = gatewayFor();
    const response = await gateway.request('/v1/text', text('faulty:reset-mid-stream', { stream: true }));
    const { envelope } = readStreamEnvelope(await response.text());
    expect(envelope).toMatchObject({
      success: false,
      error: {
        code: 'INVALID_PROVIDER_RESPONSE',
        details: { reason: 'no_end_of_answer', is_retryable: true },
      },
    });
  });

  test('an HTML 200 to a streamed request is a failure, answered with its status before any delta', async () => {
    const { gateway } = gatewayFor();
    const answer = await readEnvelope(
      await gateway.request('/v1/text', text('faulty:html-200', { stream: true })),
    );
    expect(answer.envelope).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { content_type: 'text/html' } },
    });
  });

  test('a stream with no first byte within its bound is a 504, not a 200 with an event', async () => {
    const { gateway } = gatewayFor({ upstream: { firstByteTimeoutMs: 300 } });
    const answer = await readEnvelope(
      await gateway.request('/v1/text', text('faulty:slow-first-byte', { stream: true })),
    );
    expect(answer.status).toBe(504);
    expect(answer.envelope).toMatchObject({
      error: { code: 'PROVIDER_TIMEOUT', details: { bound: 'first_byte_timeout_ms' } },
    });
    await faults.waitForAborts(1);
  });

  test('a stream whose route deadline passes before the first byte is a 504 too', async () => {
    const { gateway } = gatewayFor({ timeoutMs: 300 });
    const answer = await readEnvelope(
      await gateway.request('/v1/text', text('faulty:slow-first-byte', { stream: true })),
    );
    expect(answer.status).toBe(504);
    expect(answer.envelope).toMatchObject({ error: { code: 'PROVIDER_TIMEOUT' } });
  });

  test('a redirect to another origin is a PROVIDER_ERROR naming the status; the other origin receives nothing', async () => {
    const { gateway } = gatewayFor({ retries: 2 });
    for (const provider of ['faulty', 'faulty-anthropic']) {
      for (const stream of [false, true]) {
        const answer = await readEnvelope(
          await gateway.request('/v1/text', text(`${provider}:redirect`, { stream })),
        );
        expect(answer.envelope).toMatchObject({
          success: false,
          error: { code: 'PROVIDER_ERROR', details: { http_status: 307, redirect: 'other_origin' } },
          metadata: { attempts: 1 },
        });
        expect(answer.envelope.success ? '' : answer.envelope.error.message).toContain('307');
      }
    }
    expect(faults.elsewhere).toEqual([]);
  });

  test('a same-origin redirect of a POST is not followed either (its body would be sent again)', async () => {
    const { gateway } = gatewayFor();
    const answer = await readEnvelope(await gateway.request('/v1/text', text('faulty:redirect-same-origin')));
    expect(answer.envelope).toMatchObject({
      error: { code: 'PROVIDER_ERROR', details: { redirect: 'same_origin' } },
    });
    expect(faults.requests).toHaveLength(1);
  });

  test('a provider error that echoes the key loses it in every field, and in the log line', async () => {
    const gatewayKey = 'gateway-key-0123456789abcdef';
    const { gateway, lines } = gatewayFor({ keys: [gatewayKey] });
    for (const provider of ['faulty', 'faulty-anthropic']) {
      const response = await gateway.request('/v1/text', {
        ...text(`${provider}:echo-key`),
        headers: { authorization: `Bearer ${gatewayKey}` },
      });
      const raw = await response.clone().text();
      const answer = await readEnvelope(response);
      expect(answer.envelope).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_ERROR' } });
      expect(raw).not.toContain(KEY);
      expect(raw).not.toContain('fault-provider-key');
      expect(raw).toContain('[redacted]');
    }
    expect(faults.requests.map((request) => request.model)).toEqual(['echo-key', 'echo-key']);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines.join('\n')).not.toContain(gatewayKey);
  });

  test('a forwarded stream passes an event the provider writes in pieces', async () => {
    const { gateway } = gatewayFor({ timeoutMs: 5000 });
    const answer = await gateway.request(
      '/openai/v1/chat/completions',
      posted({ model: 'faulty:trickle-event', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    );
    // Read as a client reads a stream, one read at a time.
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let whole = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      whole += decoder.decode(value, { stream: true });
    }
    expect(whole).toContain('written in pieces.');
    expect(whole).not.toContain('verdict_code');
    expect(whole.trimEnd().endsWith('data: [DONE]')).toBe(true);
  }, 30_000);

  test('a successful answer that echoes the key in content, request id, model, tool arguments and reasoning loses it everywhere', async () => {
    const { gateway } = gatewayFor();
    const requests: [string, Record<string, unknown>][] = [
      ['/v1/text', { model: 'faulty:echo-key-answer', input: 'Say hi' }],
      [
        '/openai/v1/chat/completions',
        { model: 'faulty:echo-key-answer', messages: [{ role: 'user', content: 'Hi' }] },
      ],
    ];
    for (const [path, body] of requests) {
      const response = await gateway.request(path, posted(body));
      const raw = await response.text();
      expect(response.status, raw).toBe(200);
      expect(raw).not.toContain('fault-provider-key');
      expect(raw).toContain('[redacted]');
    }
  });

  test('a stream that echoes the key whole and split across deltas, in text and tool arguments, loses it everywhere', async () => {
    const { gateway } = gatewayFor();
    const requests: [string, Record<string, unknown>][] = [
      ['/v1/text', { model: 'faulty:echo-key-stream', input: 'Say hi', stream: true }],
      [
        '/anthropic/v1/messages',
        {
          model: 'faulty:echo-key-stream',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Hi' }],
          stream: true,
        },
      ],
    ];
    for (const [path, body] of requests) {
      const response = await gateway.request(path, posted(body));
      const raw = await response.text();
      expect(response.status, raw).toBe(200);
      expect(raw).toContain('split');
      expect(raw).not.toContain('fault-provider-key');
      expect(raw).not.toContain('0123456789');
      expect(raw).toContain('[redacted]');
    }
  });

  test('a model id past 256 characters is a VALIDATION_ERROR and reaches no provider', async () => {
    const { gateway } = gatewayFor();
    const answer = await readEnvelope(await gateway.request('/v1/text', text(`faulty:${'m'.repeat(300)}`)));
    expect(answer.envelope).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: { max_model_id_length: 256 } },
    });
    expect(faults.requests).toEqual([]);
  });

  test('retries follow is_retryable: a schema-failed 200 is tried once, a reset before the first text again', async () => {
    const { gateway } = gatewayFor({ retries: 2, retryBaseMs: 1 });
    const schema = await readEnvelope(await gateway.request('/v1/text', text('faulty:schema-200')));
    expect(schema.envelope).toMatchObject({ success: false, metadata: { attempts: 1 } });
    expect(faults.requests).toHaveLength(1);
    const reset = await gateway.request('/v1/text', text('faulty:reset-before-text', { stream: true }));
    const { envelope } = readStreamEnvelope(await reset.text());
    expect(envelope).toMatchObject({ success: true, content: 'Hi.', metadata: { attempts: 2 } });
  });

  test('traceparent flags 00 are passed on as 00', async () => {
    const { gateway } = gatewayFor();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await gateway.request('/v1/text', {
      ...text('faulty:ok'),
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-00` },
    });
    expect(faults.requests.at(-1)?.headers.traceparent).toMatch(
      new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`),
    );
  });
});

describe('a Gemini stream', () => {
  let replay: ReplayProviders;
  beforeAll(async () => {
    replay = await startReplayProviders();
  });
  afterAll(() => replay.close());
  const chunk = (candidate: Record<string, unknown>) =>
    `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Half an' }], role: 'model' }, index: 0, ...candidate }] })}\r\n\r\n`;

  test('is a success only with its final candidate (finishReason)', async () => {
    const gateway = createGateway({
      providers: replay.providers() as GatewayOptions['providers'],
      retries: 0,
    });
    const ask = async () =>
      readStreamEnvelope(
        await (await gateway.request('/v1/text', text('google:gemini-2.5-flash', { stream: true }))).text(),
      ).envelope;
    replay.enqueue({ headers: { 'content-type': 'text/event-stream' }, sse: chunk({}) });
    expect(await ask()).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { reason: 'no_end_of_answer' } },
    });
    replay.enqueue({
      headers: { 'content-type': 'text/event-stream' },
      sse: chunk({ finishReason: 'STOP' }),
    });
    expect(await ask()).toMatchObject({ success: true, content: 'Half an' });
  });
});

describe("provider faults are reported as the provider's", () => {
  const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];

  test('deeply nested tool arguments are not a gateway bug', async () => {
    const { gateway } = gatewayFor();
    const answer = await readEnvelope(
      await gateway.request('/v1/text', text('faulty:deep-tool-arguments', { tools })),
    );
    expect(answer.status).not.toBe(500);
    expect(JSON.stringify(answer.envelope)).not.toContain('call stack');
    expect(
      answer.envelope.success === true || answer.envelope.error.code === 'INVALID_PROVIDER_RESPONSE',
    ).toBe(true);
  });

  test('valid tool arguments holding a __proto__ key are JSON, kept as an own member', async () => {
    const { gateway } = gatewayFor();
    const answer = await readEnvelope(
      await gateway.request('/v1/text', text('faulty:proto-tool-arguments', { tools })),
    );
    const [call] = answer.envelope.metadata.tool_calls as {
      arguments: Record<string, unknown>;
      arguments_not_json?: true;
    }[];
    expect(call?.arguments_not_json).toBeUndefined();
    expect(call?.arguments.city).toBe('Paris');
    expect(Object.hasOwn(call?.arguments ?? {}, '__proto__')).toBe(true);
    expect(({} as { admin?: unknown }).admin).toBeUndefined();
  });

  test('too many content codings, a header overflow and a 1xx flood are INVALID_PROVIDER_RESPONSE, tried once', async () => {
    const { gateway } = gatewayFor({ retries: 2, retryBaseMs: 1 });
    for (const model of ['faulty:many-codings', 'faulty:header-overflow', 'faulty:1xx-flood']) {
      faults.reset();
      const answer = await readEnvelope(await gateway.request('/v1/text', text(model)));
      expect(answer.envelope).toMatchObject({
        success: false,
        error: { code: 'INVALID_PROVIDER_RESPONSE', details: { is_retryable: false } },
        metadata: { attempts: 1 },
      });
      expect(faults.requests).toHaveLength(1);
    }
  });

  test('an answer with more tool calls than the bound fails before the AI SDK converts it', async () => {
    const { gateway } = gatewayFor();
    const answer = await readEnvelope(
      await gateway.request('/v1/text', text('faulty:many-tool-calls', { tools })),
    );
    expect(answer.envelope).toMatchObject({
      success: false,
      error: {
        code: 'INVALID_PROVIDER_RESPONSE',
        details: { bound: 'max_tool_calls', max_tool_calls: 1024, is_retryable: false },
      },
    });
  });

  test('a stream with more tool calls than the bound fails too', async () => {
    const { gateway } = gatewayFor();
    const response = await gateway.request(
      '/v1/text',
      text('faulty:many-tool-calls', { tools, stream: true }),
    );
    const answer = await readEnvelope(response);
    expect(answer.envelope).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { bound: 'max_tool_calls', is_retryable: false } },
    });
  });
});
