import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { createHold, fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const SECRETS = [
  'sk-replay-openai-secret',
  'sk-ant-replay-secret',
  'replay-google-secret',
  'sk-or-replay-secret',
];

function gatewayWith(options: GatewayOptions = {}, lines: string[] = []) {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retryBaseMs: 1,
    log: (line) => lines.push(line),
    ...options,
  });
}

function post(
  gateway: ReturnType<typeof createGateway>,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return gateway.request(path, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('POST /v1/text', () => {
  test.each([
    ['openai:gpt-4o-mini', 'openai', '/v1/chat/completions', 'Paris is the capital of France.', 'req_7f3a9c'],
    ['anthropic:claude-sonnet-4-5', 'anthropic', '/v1/messages', 'Bonjour !', 'req_011CAnth'],
    [
      'google:gemini-2.5-flash',
      'google',
      '/v1beta/models/gemini-2.5-flash:generateContent',
      'The Nile is the longest river.',
      'req_replay_',
    ],
    [
      'openrouter:meta/llama',
      'openrouter',
      '/api/v1/chat/completions',
      'Paris is the capital of France.',
      'req_7f3a9c',
    ],
  ])(
    '%s answers a success envelope from the provider API',
    async (model, provider, path, content, requestId) => {
      const gateway = gatewayWith();
      const answer = await readEnvelope(await post(gateway, '/v1/text', { model, input: 'Say hi' }));
      expect(answer.status).toBe(200);
      expect(answer.envelope).toMatchObject({ success: true, provider, content });
      expect(String(answer.envelope.metadata.provider_request_id)).toContain(requestId);
      expect(answer.envelope.metadata).toMatchObject({ attempts: 1, target: model });
      expect(replay.requests.map((request) => request.path)).toEqual([path]);
    },
  );

  test('an openai provider with api "responses" calls the Responses API, streamed or not', async () => {
    const gateway = gatewayWith({
      providers: {
        openai: { baseURL: replay.baseURL.openai, apiKey: 'sk-replay-openai-secret', api: 'responses' },
      },
    });
    const plain = await readEnvelope(await post(gateway, '/v1/text', { model: 'openai:gpt-5', input: 'Hi' }));
    expect(plain.envelope).toMatchObject({ success: true, provider: 'openai' });
    const response = await post(gateway, '/v1/text', { model: 'openai:gpt-5', input: 'Hi', stream: true });
    const streamed = readStreamEnvelope(await response.text());
    expect(streamed.envelope).toMatchObject({
      success: true,
      provider: 'openai',
      content: streamed.deltas.join(''),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-trace-id')).toBe(streamed.envelope.metadata.trace_id);
    expect(replay.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses']);
  });

  test('passes messages, instructions and sampling options to the provider', async () => {
    const gateway = gatewayWith();
    await readEnvelope(
      await post(gateway, '/v1/text', {
        model: 'openai:gpt-4o-mini',
        input: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'Capital of France?' },
        ],
        system: 'Be brief.',
        temperature: 0.2,
        max_output_tokens: 50,
      }),
    );
    const sent = replay.requests[0]?.body as {
      messages: { role: string }[];
      temperature: number;
      max_tokens: number;
    };
    expect(sent.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent).toMatchObject({ temperature: 0.2, max_tokens: 50 });
  });

  test('takes the trace id from traceparent, echoes it and passes it on to the provider', async () => {
    const gateway = gatewayWith();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await readEnvelope(
      await post(
        gateway,
        '/v1/text',
        { model: 'openai:gpt-4o-mini', input: 'Hi' },
        { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      ),
    );
    expect(answer.envelope.metadata.trace_id).toBe(traceId);
    expect(answer.headers.get('x-trace-id')).toBe(traceId);
    const sent = replay.requests[0]?.headers ?? {};
    expect(sent['x-trace-id']).toBe(traceId);
    expect(sent.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // The provider's own request id stays apart from the trace id.
    expect(answer.envelope.metadata.provider_request_id).not.toBe(traceId);
  });

  test('takes the trace id from x-request-id when there is no traceparent, and generates one otherwise', async () => {
    const gateway = gatewayWith();
    const given = await readEnvelope(
      await post(
        gateway,
        '/v1/text',
        { model: 'openai:gpt-4o-mini', input: 'Hi' },
        { 'x-request-id': 'client-42' },
      ),
    );
    expect(given.envelope.metadata.trace_id).toBe('client-42');
    expect(replay.requests[0]?.headers['x-trace-id']).toBe('client-42');
    const generated = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(generated.envelope.metadata.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });
});

/** A non-streamed chat completion saying what `openai.chat/success/stream-text.json` streams. */
function chatCompletionLikeTheStream() {
  const events = fixture('openai.chat/success/stream-text.json').events as {
    id: string;
    model: string;
    choices: { delta: { content?: string }; finish_reason: string | null }[];
    usage: unknown;
  }[];
  const content = events.map((event) => event.choices[0]?.delta.content ?? '').join('');
  const last = events.at(-1);
  return {
    body: {
      id: last?.id,
      object: 'chat.completion',
      created: 1767225700,
      model: last?.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: last?.usage,
    },
    headers: { 'x-request-id': 'req_same' },
  };
}

describe('POST /v1/text with "stream": true', () => {
  test('sends delta events, then one envelope event equal to the unstreamed answer', async () => {
    const gateway = gatewayWith();
    const request = { model: 'openai:gpt-4o-mini', input: 'Hi' };
    replay.enqueue({
      ...fixture('openai.chat/success/stream-text.json'),
      headers: { 'x-request-id': 'req_same' },
    });
    const response = await post(
      gateway,
      '/v1/text',
      { ...request, stream: true },
      { 'x-request-id': 'trace-s' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await response.text();
    console.log('DROP', body);
    const streamed = readStreamEnvelope(body);
    expect(streamed.deltas).toEqual(['Hel', 'lo!']);
    replay.enqueue(chatCompletionLikeTheStream());
    const plain = await readEnvelope(await post(gateway, '/v1/text', request, { 'x-request-id': 'trace-s' }));
    const { latency_ms: _a, ...streamedMetadata } = streamed.envelope.metadata;
    const { latency_ms: _b, ...plainMetadata } = plain.envelope.metadata;
    expect({ ...streamed.envelope, metadata: streamedMetadata }).toEqual({
      ...plain.envelope,
      metadata: plainMetadata,
    });
    expect(streamed.envelope).toMatchObject({
      success: true,
      content: 'Hello!',
      usage: { input_tokens: 9, output_tokens: 2 },
    });
  });

  test('streams Anthropic events too', async () => {
    const gateway = gatewayWith();
    const response = await post(gateway, '/v1/text', {
      model: 'anthropic:claude-sonnet-4-5',
      input: 'Hi',
      stream: true,
    });
    const streamed = readStreamEnvelope(await response.text());
    expect(streamed.deltas.join('')).toBe('Checking now.');
    expect(streamed.envelope).toMatchObject({
      success: true,
      provider: 'anthropic',
      content: 'Checking now.',
    });
  });

  test.each([
    ['google:gemini-2.5-flash', 'google'],
    ['openrouter:meta/llama', 'openrouter'],
  ])('streams %s too, ending with its envelope', async (model, provider) => {
    const gateway = gatewayWith();
    const response = await post(gateway, '/v1/text', { model, input: 'Hi', stream: true });
    const streamed = readStreamEnvelope(await response.text());
    expect(streamed.deltas.length).toBeGreaterThan(0);
    expect(streamed.envelope).toMatchObject({ success: true, provider, content: streamed.deltas.join('') });
  });

  test('an error event after the first text ends the stream with a failure envelope', async () => {
    const gateway = gatewayWith();
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/stream-mid-error.json'));
    const response = await post(gateway, '/v1/text', {
      model: 'openai:gpt-4o-mini',
      input: 'Hi',
      stream: true,
    });
    const streamed = readStreamEnvelope(await response.text());
    // The text streamed before the error reaches the client (an ending that could begin a configured key is held
    // back and sent as a delta of its own: docs/gateway.md, "Security").
    expect(streamed.deltas.join('')).toBe('Partial answer');
    expect(streamed.envelope).toMatchObject({
      success: false,
      provider: 'openai',
      error: { code: 'PROVIDER_ERROR' },
    });
  });

  test('an Anthropic overloaded event mid-stream becomes PROVIDER_UNAVAILABLE', async () => {
    const gateway = gatewayWith({ retries: 0 });
    replay.enqueue(fixture('anthropic.messages/PROVIDER_UNAVAILABLE/stream-overloaded.json'));
    const response = await post(gateway, '/v1/text', {
      model: 'anthropic:claude-sonnet-4-5',
      input: 'Hi',
      stream: true,
    });
    const text = await response.text();
    const envelope = response.headers.get('content-type')?.startsWith('text/event-stream')
      ? readStreamEnvelope(text).envelope
      : JSON.parse(text);
    expect(envelope).toMatchObject({ success: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
  });

  test('a connection dropped mid-stream ends with a failure envelope, never a half-success', async () => {
    const gateway = gatewayWith({ retries: 0 });
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { dropAfterEvents: 3, eventDelayMs: 30 }));
    const response = await post(gateway, '/v1/text', {
      model: 'openai:gpt-4o-mini',
      input: 'Hi',
      stream: true,
    });
    const streamed = readStreamEnvelope(await response.text());
    expect(streamed.deltas).toEqual(['Hel', 'lo!']);
    expect(streamed.envelope).toMatchObject({ success: false, provider: 'openai' });
  });

  test('a failure before any text is answered as a plain envelope with its status', async () => {
    const gateway = gatewayWith({ retries: 0 });
    replay.enqueue(fixture('openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json'));
    const answer = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi', stream: true }),
    );
    expect(answer.status).toBe(401);
    expect(answer.envelope).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_ERROR' } });
  });
});

describe('provider failures', () => {
  test.each([
    ['openai.chat/VALIDATION_ERROR/unsupported-parameter-400.json', 'openai', 400, 'VALIDATION_ERROR'],
    ['openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json', 'openai', 401, 'AUTHENTICATION_ERROR'],
    ['openai.chat/INSUFFICIENT_CREDITS/insufficient-quota-429.json', 'openai', 402, 'INSUFFICIENT_CREDITS'],
    ['openai.chat/PERMISSION_DENIED/unsupported-region-403.json', 'openai', 403, 'PERMISSION_DENIED'],
    ['openai.chat/NOT_FOUND/model-not-found-404.json', 'openai', 404, 'NOT_FOUND'],
    ['openai.chat/PAYLOAD_TOO_LARGE/request-too-large-413.json', 'openai', 413, 'PAYLOAD_TOO_LARGE'],
    ['openai.chat/RATE_LIMITED/rate-limit-429.json', 'openai', 429, 'RATE_LIMITED'],
    ['openai.chat/PROVIDER_ERROR/server-error-500.json', 'openai', 502, 'PROVIDER_ERROR'],
    ['openai-compatible.chat/PROVIDER_ERROR/bad-gateway-502-text.json', 'openrouter', 502, 'PROVIDER_ERROR'],
    ['openai.chat/PROVIDER_UNAVAILABLE/overloaded-503.json', 'openai', 503, 'PROVIDER_UNAVAILABLE'],
    ['openai.chat/PROVIDER_TIMEOUT/gateway-timeout-html-504.json', 'openai', 504, 'PROVIDER_TIMEOUT'],
    ['anthropic.messages/PROVIDER_UNAVAILABLE/overloaded-529.json', 'anthropic', 503, 'PROVIDER_UNAVAILABLE'],
    ['anthropic.messages/RATE_LIMITED/rate-limit-429.json', 'anthropic', 429, 'RATE_LIMITED'],
    [
      'google.generate-content/PROVIDER_UNAVAILABLE/unavailable-503.json',
      'google',
      503,
      'PROVIDER_UNAVAILABLE',
    ],
  ])('%s → %s %i %s', async (path, provider, status, code) => {
    const gateway = gatewayWith({ retries: 0 });
    replay.enqueue(fixture(path));
    const model = {
      openai: 'openai:gpt-4o-mini',
      anthropic: 'anthropic:claude-x',
      google: 'google:gemini-x',
      openrouter: 'openrouter:m',
    }[provider];
    const answer = await readEnvelope(await post(gateway, '/v1/text', { model, input: 'Hi' }));
    expect(answer.status).toBe(status);
    expect(answer.envelope).toMatchObject({ success: false, provider, error: { code } });
    expect(answer.envelope.metadata.attempts).toBe(1);
    for (const secret of SECRETS) expect(JSON.stringify(answer.envelope)).not.toContain(secret);
    expect(JSON.stringify(answer.envelope)).not.toContain(replay.url);
  });

  test('an HTML page with status 200 is INVALID_PROVIDER_RESPONSE', async () => {
    const gateway = gatewayWith({ retries: 0 });
    replay.enqueue({ status: 200, body: '<html><body>Sign in to continue</body></html>' });
    const answer = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(answer.envelope).toMatchObject({ success: false, error: { code: 'INVALID_PROVIDER_RESPONSE' } });
  });
});

describe('reliability', () => {
  test('retries a 429 after the retry-after it asks for, and counts the attempts', async () => {
    const gateway = gatewayWith({ retries: 2 });
    replay.enqueue({
      ...fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'),
      headers: { 'retry-after': '0' },
    });
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/server-error-500.json'));
    const answer = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(answer.envelope).toMatchObject({ success: true, metadata: { attempts: 3 } });
    expect(replay.requests).toHaveLength(3);
  });

  test('does not wait for a retry-after longer than allowed, and does not retry what cannot succeed', async () => {
    const gateway = gatewayWith({ retries: 3, maxRetryAfterMs: 1000 });
    replay.enqueue(fixture('anthropic.messages/RATE_LIMITED/rate-limit-429.json')); // retry-after: 20
    const limited = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'anthropic:claude-x', input: 'Hi' }),
    );
    expect(limited.envelope).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED' },
      metadata: { attempts: 1 },
    });
    replay.enqueue(fixture('openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json'));
    const denied = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(denied.envelope.metadata.attempts).toBe(1);
  });

  test('falls back to the next target of an alias', async () => {
    const gateway = gatewayWith({
      retries: 0,
      aliases: { smart: ['anthropic:claude-x', 'openai:gpt-4o-mini'] },
    });
    replay.enqueue(fixture('anthropic.messages/PROVIDER_UNAVAILABLE/overloaded-529.json'));
    const answer = await readEnvelope(await post(gateway, '/v1/text', { model: 'smart', input: 'Hi' }));
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'openai',
      metadata: {
        attempts: 2,
        target: 'openai:gpt-4o-mini',
        fallback_from: [{ target: 'anthropic:claude-x', code: 'PROVIDER_UNAVAILABLE' }],
      },
    });
  });

  test('does not fall back when the request itself is at fault', async () => {
    const gateway = gatewayWith({ retries: 0, aliases: { smart: ['openai:a', 'anthropic:b'] } });
    replay.enqueue(fixture('openai.chat/CONTEXT_LENGTH_EXCEEDED/context-length-400.json'));
    const answer = await readEnvelope(await post(gateway, '/v1/text', { model: 'smart', input: 'Hi' }));
    expect(answer.envelope).toMatchObject({ success: false, error: { code: 'CONTEXT_LENGTH_EXCEEDED' } });
    expect(replay.requests).toHaveLength(1);
  });

  test('a provider slower than the route timeout gives PROVIDER_TIMEOUT, and the provider request is aborted', async () => {
    const gateway = gatewayWith({ routes: { text: { timeoutMs: 300 } } });
    replay.enqueue({ hang: true });
    const answer = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(answer.status).toBe(504);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'openai',
      error: { code: 'PROVIDER_TIMEOUT' },
    });
    await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
  });

  test('past the concurrency limit and its queue, a request is refused with retry-after', async () => {
    const gateway = gatewayWith({ concurrency: 1, queue: 0 });
    // The first request holds the only place until the refusal was seen, however slow the machine is.
    const { promise: refusalSeen, release } = createHold();
    replay.enqueue({
      ...fixture('openai.chat/success/length-with-unknown-fields.json'),
      holdUntil: refusalSeen,
    });
    const first = post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' });
    await expect.poll(() => replay.requests.length, { timeout: 15_000 }).toBe(1);
    const refused = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.envelope).toMatchObject({
      success: false,
      provider: 'system',
      error: { code: 'RATE_LIMITED' },
    });
    release();
    expect((await readEnvelope(await first)).envelope.success).toBe(true);
  });

  test('a queued request waits for a place instead of being refused', async () => {
    const gateway = gatewayWith({ concurrency: 1, queue: 5 });
    replay.enqueue({ ...fixture('openai.chat/success/length-with-unknown-fields.json'), delayMs: 200 });
    const answers = await Promise.all(
      [1, 2, 3].map(() => post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' })),
    );
    for (const answer of answers) expect((await readEnvelope(answer)).envelope.success).toBe(true);
  });

  test('close() refuses new provider requests while requests in flight finish; idle() waits for them', async () => {
    const gateway = gatewayWith();
    const { promise: checked, release } = createHold();
    replay.enqueue({
      ...fixture('openai.chat/success/length-with-unknown-fields.json'),
      holdUntil: checked,
    });
    const inFlight = post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' });
    await expect.poll(() => replay.requests.length, { timeout: 15_000 }).toBe(1);
    gateway.close();
    const refused = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(refused.envelope).toMatchObject({ error: { code: 'PROVIDER_UNAVAILABLE' } });
    const health = await readEnvelope(await gateway.request('/healthz'));
    expect(health.envelope).toMatchObject({ success: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
    expect(gateway.inFlight()).toBeGreaterThan(0);
    let idle = false;
    const waiting = gateway.idle().then(() => {
      idle = true;
    });
    await Promise.resolve();
    expect(idle).toBe(false);
    release();
    await waiting;
    expect((await readEnvelope(await inFlight)).envelope.success).toBe(true);
  });
});

describe('requests the gateway refuses itself', () => {
  test('unknown paths, wrong methods, bad JSON, duplicates, unknown members and oversized bodies', async () => {
    const gateway = gatewayWith({ maxBodyBytes: 200 });
    const unknown = await readEnvelope(await gateway.request('/v2/nothing'));
    expect(unknown.envelope).toMatchObject({ provider: 'system', error: { code: 'NOT_FOUND' } });
    const method = await readEnvelope(await gateway.request('/v1/text'));
    expect(method.envelope).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: { allowed: ['POST'] } },
    });
    const badJson = await readEnvelope(await post(gateway, '/v1/text', '{"model": '));
    expect(badJson.envelope).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: { reason: 'syntax' } },
    });
    const invalid = await readEnvelope(
      await post(
        gateway,
        '/v1/text',
        '{"model":"openai:x","model":"openai:y","input":[],"temperature":"hot","color":1}',
      ),
    );
    const problems = (invalid.envelope as { error: { details: { problems: { path: string }[] } } }).error
      .details.problems;
    // The duplicate is said of its object (the root, ''), naming the member, as every validator says it.
    expect(problems.map((problem) => problem.path).sort()).toEqual(['', '/color', '/input', '/temperature']);
    expect(problems).toContainEqual({
      path: '',
      message: 'The root object names the member "model" more than once.',
    });
    const large = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:x', input: 'x'.repeat(500) }),
    );
    expect(large.envelope).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', details: { max_body_bytes: 200 } },
    });
    const notUtf8 = await readEnvelope(
      await gateway.request('/v1/text', { method: 'POST', body: new Uint8Array([0x7b, 0xff, 0x7d]) }),
    );
    expect(notUtf8.envelope).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: { reason: 'not_utf8' } },
    });
    expect(replay.requests).toHaveLength(0);
  });

  test('a declared content-length is read in one go yet the limit holds, even when the header understates the body', async () => {
    const gateway = gatewayWith({ maxBodyBytes: 200 });
    replay.enqueue(fixture('openai.chat/success/length-with-unknown-fields.json'));
    const body = JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' });
    const declared = await readEnvelope(
      await post(gateway, '/v1/text', body, { 'content-length': String(Buffer.byteLength(body)) }),
    );
    expect(declared.envelope.success).toBe(true);
    const understated = await readEnvelope(
      await post(
        gateway,
        '/v1/text',
        { model: 'openai:x', input: 'x'.repeat(500) },
        { 'content-length': '20' },
      ),
    );
    expect(understated.envelope).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', details: { max_body_bytes: 200 } },
    });
    const overstated = await readEnvelope(await post(gateway, '/v1/text', body, { 'content-length': '201' }));
    expect(overstated.envelope).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(replay.requests).toHaveLength(1);
  });

  test('an unknown model names the configured providers and aliases; a modality a provider lacks is said', async () => {
    const gateway = gatewayWith({ aliases: { fast: 'openai:gpt-4o-mini' } });
    const unknown = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'mistral:large', input: 'Hi' }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.envelope).toMatchObject({ error: { code: 'NOT_FOUND', details: { aliases: ['fast'] } } });
    expect((unknown.envelope as { error: { message: string } }).error.message).toMatch(/openai, anthropic/);
    const lacking = await readEnvelope(
      await post(gateway, '/v1/images', { model: 'anthropic:claude-x', prompt: 'a cat' }),
    );
    expect(lacking.envelope).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: { modality: 'images' } },
    });
  });

  test('gateway keys: missing or wrong → AUTHENTICATION_ERROR; the right one passes; /healthz stays open', async () => {
    const key = 'gw-key-0123456789abcdef';
    const gateway = gatewayWith({ keys: [key] });
    const missing = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' }),
    );
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await readEnvelope(
      await post(
        gateway,
        '/v1/text',
        { model: 'openai:gpt-4o-mini', input: 'Hi' },
        { authorization: `Bearer ${key}x` },
      ),
    );
    expect(wrong.envelope).toMatchObject({ error: { code: 'AUTHENTICATION_ERROR' } });
    expect((await gateway.request('/metrics')).status).toBe(401);
    const right = await readEnvelope(
      await post(
        gateway,
        '/v1/text',
        { model: 'openai:gpt-4o-mini', input: 'Hi' },
        { authorization: `Bearer ${key}` },
      ),
    );
    expect(right.envelope.success).toBe(true);
    const health = await readEnvelope(await gateway.request('/healthz'));
    expect(health.envelope).toMatchObject({ success: true, provider: 'system' });
    expect(replay.requests).toHaveLength(1);
  });

  test('CORS is off unless origins are configured', async () => {
    const closed = await gatewayWith().request('/v1/models', { headers: { origin: 'https://app.example' } });
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    const open = await gatewayWith({ cors: { origins: ['https://app.example'] } }).request('/v1/models', {
      headers: { origin: 'https://app.example' },
    });
    expect(open.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });
});

describe('other modalities', () => {
  test('images, speech and transcriptions (JSON and multipart) through OpenAI', async () => {
    const gateway = gatewayWith();
    const images = await readEnvelope(
      await post(gateway, '/v1/images', { model: 'openai:gpt-image-1', prompt: 'a cat', size: '1024x1024' }),
    );
    expect(images.envelope).toMatchObject({ success: true, images: [{ media_type: 'image/webp' }] });
    expect(replay.requests.at(-1)?.body).toMatchObject({ prompt: 'a cat', size: '1024x1024' });
    const speech = await readEnvelope(
      await post(gateway, '/v1/speech', { model: 'openai:tts-1', input: 'Hello', voice: 'alloy' }),
    );
    expect(speech.envelope).toMatchObject({
      success: true,
      files: [{ media_type: 'audio/mpeg', name: 'speech.mp3' }],
    });
    const transcript = await readEnvelope(
      await post(gateway, '/v1/transcriptions', {
        model: 'openai:whisper-1',
        audio: 'SUQzBAAAAAAAD//7kGQAAA==',
        media_type: 'audio/mpeg',
      }),
    );
    expect(transcript.envelope).toMatchObject({ success: true, content: 'Hello from the recording.' });
    const form = new FormData();
    form.set('model', 'openai:whisper-1');
    form.set(
      'file',
      new Blob([Uint8Array.from(atob('SUQzBAAAAAAAD//7kGQAAA=='), (c) => c.charCodeAt(0))], {
        type: 'audio/mpeg',
      }),
      'hi.mp3',
    );
    const multipart = await readEnvelope(
      await gateway.request('/v1/transcriptions', { method: 'POST', body: form }),
    );
    expect(multipart.envelope).toMatchObject({ success: true, content: 'Hello from the recording.' });
    expect(replay.requests.map((request) => request.path)).toEqual([
      '/v1/images/generations',
      '/v1/audio/speech',
      '/v1/audio/transcriptions',
      '/v1/audio/transcriptions',
    ]);
  });

  test('a failed image call is a failure envelope with the provider status', async () => {
    const gateway = gatewayWith({ retries: 0 });
    replay.enqueue(fixture('openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json'));
    const answer = await readEnvelope(
      await post(gateway, '/v1/images', { model: 'openai:gpt-image-1', prompt: 'a cat' }),
    );
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'openai',
      error: { code: 'AUTHENTICATION_ERROR' },
    });
  });
});

describe('POST /v1/videos', () => {
  test('starts a Replicate job, polls it and answers the video by URL', async () => {
    const gateway = gatewayWith({ videoPollMs: 10 });
    replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions' });
    replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions/' });
    const answer = await readEnvelope(
      await post(gateway, '/v1/videos', {
        model: 'replicate:minimax/video-01',
        prompt: 'an astronaut riding a horse',
      }),
    );
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'replicate',
      content: 'Generated 1 video.',
      videos: [{ url: 'https://replicate.delivery/pbxt/xyz/output.mp4', media_type: 'video/mp4' }],
      metadata: { job_status: 'completed', attempts: 1 },
    });
    expect(replay.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/models/minimax/video-01/predictions',
      'GET /v1/predictions/rrr4y6x1n1rmc0cm3tav9k0fzr',
      'GET /v1/predictions/rrr4y6x1n1rmc0cm3tav9k0fzr',
    ]);
    expect(replay.requests[0]?.body).toMatchObject({ input: { prompt: 'an astronaut riding a horse' } });
  });

  test('a failed job is PROVIDER_ERROR; a job slower than the route timeout is PROVIDER_TIMEOUT', async () => {
    // The failed job gets the default deadline, so that a busy machine cannot turn its failure into a timeout.
    const patient = gatewayWith({ retries: 0, videoPollMs: 10 });
    const gateway = gatewayWith({ retries: 0, videoPollMs: 10, routes: { videos: { timeoutMs: 300 } } });
    replay.enqueue({
      ...fixture('replicate.prediction/PROVIDER_ERROR/failed-with-200.json'),
      match: '/predictions/',
    });
    const failed = await readEnvelope(
      await post(patient, '/v1/videos', { model: 'replicate:minimax/video-01', prompt: 'x' }),
    );
    expect(failed.status).toBe(502);
    expect(failed.envelope).toMatchObject({
      success: false,
      provider: 'replicate',
      error: { code: 'PROVIDER_ERROR' },
    });
    for (let index = 0; index < 100; index++) {
      replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions/' });
    }
    const slow = await readEnvelope(
      await post(gateway, '/v1/videos', { model: 'replicate:minimax/video-01', prompt: 'x' }),
    );
    expect(slow.envelope).toMatchObject({
      success: false,
      provider: 'replicate',
      error: { code: 'PROVIDER_TIMEOUT' },
    });
    // Once the answer is sent, the job is no longer polled: the provider's request count settles (a status
    // call already on its way may still arrive), and the next test starts with a quiet replay server.
    let settled = -1;
    for (let round = 0; round < 25 && replay.requests.length !== settled; round++) {
      settled = replay.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(replay.requests.length).toBe(settled);
  });
});

describe('GET /v1/videos/{job_id}', () => {
  test('"wait": false answers a job id at once; polling it gives the job status, then the videos', async () => {
    const gateway = gatewayWith();
    const started = await readEnvelope(
      await post(gateway, '/v1/videos', {
        model: 'replicate:minimax/video-01',
        prompt: 'a horse',
        wait: false,
      }),
    );
    expect(started.envelope).toMatchObject({
      success: true,
      videos: [],
      metadata: { job_status: 'pending' },
    });
    const jobId = String(started.envelope.metadata.job_id);
    expect(started.envelope.metadata.poll).toBe(`/v1/videos/${jobId}`);
    replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions/' });
    const pending = await readEnvelope(await gateway.request(`/v1/videos/${jobId}`));
    expect(pending.envelope).toMatchObject({
      success: true,
      metadata: { job_status: 'pending', job_id: jobId },
    });
    const done = await readEnvelope(await gateway.request(`/v1/videos/${jobId}`));
    expect(done.envelope).toMatchObject({
      success: true,
      provider: 'replicate',
      videos: [{ url: 'https://replicate.delivery/pbxt/xyz/output.mp4' }],
      metadata: { job_status: 'completed' },
    });
    expect(replay.requests.map((request) => request.method)).toEqual(['POST', 'GET', 'GET']);
  });

  test('a job id that is not one, or names a provider not configured, is NOT_FOUND', async () => {
    const gateway = gatewayWith();
    const garbage = await readEnvelope(await gateway.request('/v1/videos/not*a*job'));
    expect(garbage.envelope).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const forged = Buffer.from(JSON.stringify({ target: 'elsewhere:x', operation: {} })).toString(
      'base64url',
    );
    const unknown = await readEnvelope(await gateway.request(`/v1/videos/${forged}`));
    expect(unknown.envelope).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(replay.requests).toHaveLength(0);
  });

  test("a job id is NOT_FOUND unless its operation has its own provider's shape, before any call", async () => {
    const gateway = gatewayWith();
    const forged = [
      // Another provider's operation: Google recognises Gemini operation names only, Replicate status URLs only.
      { target: 'google:veo-3.0-generate-001', operation: { getUrl: `${replay.url}/v1/predictions/x` } },
      { target: 'replicate:minimax/video-01', operation: { operationName: 'operations/x' } },
      { target: 'replicate:minimax/video-01', operation: { getUrl: 'file:///etc/passwd' } },
      { target: 'replicate:minimax/video-01', operation: { getUrl: 5 } },
      // A provider that offers no videos.
      { target: 'openai:sora-2', operation: { operationName: 'operations/x' } },
    ];
    for (const job of forged) {
      const id = Buffer.from(JSON.stringify(job)).toString('base64url');
      const answer = await readEnvelope(await gateway.request(`/v1/videos/${id}`));
      expect(answer.envelope, JSON.stringify(job)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect(replay.requests).toHaveLength(0);
  });
});

describe('service endpoints', () => {
  test('GET /v1/models lists providers and aliases as an envelope, with no key', async () => {
    const gateway = gatewayWith({ aliases: { fast: 'openai:gpt-4o-mini' } });
    const answer = await readEnvelope(await gateway.request('/v1/models'));
    expect(answer.envelope).toMatchObject({
      success: true,
      metadata: { aliases: { fast: ['openai:gpt-4o-mini'] } },
    });
    expect(JSON.stringify(answer.envelope)).not.toMatch(/secret/);
  });

  test("GET /v1/models names the text options each provider's text path takes", async () => {
    const answer = await readEnvelope(await gatewayWith().request('/v1/models'));
    const providers = (
      answer.envelope.metadata as unknown as { providers: { id: string; text_options?: string[] }[] }
    ).providers;
    const optionsOf = (id: string) => providers.find((p) => p.id === id)?.text_options;
    // OpenAI's chat API has no top-k sampling; Anthropic's has no seed or penalties.
    expect(optionsOf('openai')).toContain('seed');
    expect(optionsOf('openai')).not.toContain('top_k');
    expect(optionsOf('anthropic')).toEqual(
      expect.arrayContaining(['top_k', 'stop', 'tools', 'response_format']),
    );
    expect(optionsOf('anthropic')).not.toContain('seed');
    // A provider without a text route names none.
    expect(providers.find((p) => p.id === 'replicate')).not.toHaveProperty('text_options');
  });

  test('GET /metrics counts requests by route, status and code in Prometheus text', async () => {
    const gateway = gatewayWith({ retries: 0 });
    await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' });
    replay.enqueue(fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'));
    await post(gateway, '/v1/text', { model: 'openai:gpt-4o-mini', input: 'Hi' });
    const text = await (await gateway.request('/metrics')).text();
    expect(text).toContain('verdict_gateway_requests_total{route="/v1/text",status="200",code="ok"} 1');
    expect(text).toContain(
      'verdict_gateway_requests_total{route="/v1/text",status="429",code="RATE_LIMITED"} 1',
    );
    expect(text).toContain('verdict_gateway_provider_attempts_total{route="/v1/text",provider="openai"} 2');
    expect(text).toMatch(/verdict_gateway_request_duration_seconds_count\{route="\/v1\/text"\} 2/);
    expect(text).toContain('verdict_gateway_in_flight 0');
  });

  test('GET /openapi.json is OpenAPI 3.1 with the request schemas the gateway validates with', async () => {
    const document = (await (await gatewayWith().request('/openapi.json')).json()) as {
      openapi: string;
      paths: Record<
        string,
        {
          post?: {
            requestBody: {
              content: Record<string, { schema: { required?: string[]; additionalProperties?: boolean } }>;
            };
          };
        }
      >;
    };
    expect(document.openapi).toBe('3.1.0');
    // The listing's summary says that it names each provider's text options.
    expect(JSON.stringify(document.paths['/v1/models'])).toContain('text options');
    const text = document.paths['/v1/text']?.post?.requestBody.content['application/json']?.schema;
    expect(text?.required).toEqual(['model']);
    expect((text as { oneOf?: unknown }).oneOf).toEqual([
      { required: ['input'] },
      { required: ['messages'] },
    ]);
    expect(text?.additionalProperties).toBe(false);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/text',
        '/v1/images',
        '/v1/speech',
        '/v1/transcriptions',
        '/v1/videos',
        '/v1/models',
      ]),
    );
  });

  test('one JSON log line per request, without prompt, output or keys', async () => {
    const lines: string[] = [];
    const gateway = gatewayWith({}, lines);
    await post(
      gateway,
      '/v1/text',
      { model: 'openai:gpt-4o-mini', input: 'my secret prompt' },
      { 'x-request-id': 't-log' },
    );
    await gateway.request('/nowhere');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0] ?? '{}');
    expect(first).toMatchObject({
      trace_id: 't-log',
      route: '/v1/text',
      status: 200,
      code: 'ok',
      provider: 'openai',
      attempts: 1,
      usage: { input_tokens: 1200, output_tokens: 80 },
    });
    const all = lines.join('\n');
    expect(all).not.toContain('my secret prompt');
    expect(all).not.toContain('Paris');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
  });

  test('the console hook answers GET outside the API; what it does not answer is a NOT_FOUND envelope', async () => {
    const gateway = gatewayWith({
      console: (request) =>
        new URL(request.url).pathname === '/'
          ? new Response('<!doctype html><title>console</title>', {
              headers: { 'content-type': 'text/html' },
            })
          : undefined,
    });
    const page = await gateway.request('/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('console');
    const missing = await readEnvelope(await gateway.request('/missing.js'));
    expect(missing.envelope).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
