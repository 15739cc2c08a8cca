import fc from 'fast-check';
import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import type { TextRequest } from '../../src/gateway/request/request-schemas.js';
import { buildMessagesRequest } from '../../src/gateway/wire/anthropic-request.js';
import { withParsedToolArguments } from '../../src/gateway/wire/parse-tool-arguments.js';
import type { WireFormat } from '../../src/gateway/wire/wire-format.js';
import { wireRouteOf } from '../../src/gateway/wire/wire-formats.js';
import type { UnifiedOutput } from '../../src/unified/index.js';
import { fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { loadFixtures, normalizeFixture, type ProviderFixture } from '../unified/fixture-corpus.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The native path reads what `verdict normalize` reads: every recorded fixture of the formats the gateway speaks
 * natively is served by the replay server, asked for through `/v1/text`, and the gateway's envelope must equal the
 * normalizer's envelope of the same bytes field for field, but for the facts only the live call has (trace id,
 * latency, attempts, target, cost, the replay server's request id, the model a failure asked for) and the
 * gateway's own rendering of tool-call arguments (parsed, docs/gateway.md "Tool calls").
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

/** How each natively spoken format is asked for: the model, and the provider settings besides the replay's. */
const NATIVE_FORMATS: Record<string, { model: string; wire: WireFormat | undefined }> = {
  'openai.chat': { model: 'openai:gpt-4o-mini', wire: wireRouteOf({ id: 'openai', type: 'openai' })?.wire },
  'openrouter.chat': {
    model: 'openrouter:meta/llama',
    wire: wireRouteOf({ id: 'openrouter', type: 'openai-compatible' })?.wire,
  },
  'openai-compatible.chat': {
    model: 'compat:some-model',
    wire: wireRouteOf({ id: 'compat', type: 'openai-compatible' })?.wire,
  },
};

function providers(): GatewayOptions['providers'] {
  return {
    ...(replay.providers() as GatewayOptions['providers']),
    compat: { type: 'openai-compatible', baseURL: replay.baseURL.compatible, apiKey: 'sk-compat-replay' },
  } as GatewayOptions['providers'];
}

/** Metadata only the live call has. */
const LIVE_ONLY = ['trace_id', 'latency_ms', 'attempts', 'target', 'cost', 'provider_request_id'];

/**
 * The envelope without the live call's own facts. A failure also carries the model it asked for, as on the AI
 * SDK path (a success's `model` is the one the answer names, compared).
 */
function comparable(output: UnifiedOutput): Record<string, unknown> {
  const live = output.success ? LIVE_ONLY : [...LIVE_ONLY, 'model'];
  const metadata = Object.fromEntries(Object.entries(output.metadata).filter(([key]) => !live.includes(key)));
  return { ...output, metadata };
}

const fixtures = loadFixtures().filter((item) => item.format in NATIVE_FORMATS);

async function served(item: ProviderFixture): Promise<UnifiedOutput> {
  const serving = NATIVE_FORMATS[item.format];
  if (serving === undefined) throw new Error(`${item.format} is not spoken natively`);
  replay.enqueue(fixture(item.name));
  const gateway = createGateway({ providers: providers(), retries: 0 });
  const response = await gateway.request('/v1/text', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Reasoning is asked for, so that the answer keeps the reasoning the normalizer reads.
    body: JSON.stringify({
      model: serving.model,
      input: 'Say hi',
      reasoning_effort: 'low',
      ...(item.stream === true ? { stream: true } : {}),
    }),
  });
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return readStreamEnvelope(await response.text()).envelope;
  }
  return (await readEnvelope(response)).envelope;
}

describe('the native path means what verdict normalize means, fixture by fixture', () => {
  test('every natively spoken format has a wire format and recorded fixtures', () => {
    for (const [format, serving] of Object.entries(NATIVE_FORMATS)) {
      expect(serving.wire?.format, format).toBe(format);
      expect(
        fixtures.some((item) => item.format === format),
        format,
      ).toBe(true);
    }
  });

  for (const item of fixtures) {
    test(item.name, async () => {
      const live = await served(item);
      const provider = NATIVE_FORMATS[item.format]?.model.split(':')[0] as string;
      const offline = withParsedToolArguments(normalizeFixture(item));
      expect(replay.requests.at(-1)?.path).toMatch(/\/chat\/completions$/);
      expect(comparable(live)).toEqual(comparable({ ...offline, provider }));
    });
  }
});

/** A recorded stream as the bytes a server sends: its raw SSE, or its events as SSE frames and `[DONE]`. */
function streamBytes(item: ProviderFixture): Uint8Array {
  const text =
    item.sse ??
    `${(item.events ?? []).map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
  return new TextEncoder().encode(text);
}

/** Feeds `bytes` to a reader of `wire` in pieces cut at `cuts`; gives the deltas' text and the envelope. */
function readInPieces(wire: WireFormat, bytes: Uint8Array, cuts: readonly number[]) {
  const reader = wire.openStream({ provider: 'p', traceId: 't', status: 200, headers: {} });
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  let text = '';
  const calls: string[] = [];
  for (const point of [...points, bytes.length]) {
    for (const delta of reader.push(bytes.subarray(start, point))) {
      if (delta.type === 'text') text += delta.text;
      if (delta.type === 'tool_call_start') calls.push(`start ${delta.id} ${delta.name}`);
      if (delta.type === 'tool_call_delta') calls.push(`args ${delta.id} ${delta.arguments}`);
    }
    start = point;
  }
  return { text, calls, envelope: reader.end() };
}

describe('a native stream read in any chunking', () => {
  const streams = fixtures.filter((item) => item.stream === true && (item.status ?? 200) < 400);

  test.each(streams.map((item) => [item.name, item] as const))(
    '%s: every chunking gives the same deltas and the envelope of the whole capture',
    (_name, item) => {
      const wire = NATIVE_FORMATS[item.format]?.wire as WireFormat;
      const bytes = streamBytes(item);
      const whole = readInPieces(wire, bytes, []);
      const { trace_id: _t, ...offline } = normalizeFixture(item, 't').metadata;
      const { trace_id: _w, ...wholeMetadata } = whole.envelope.metadata;
      expect({ ...whole.envelope, provider: 'x', metadata: wholeMetadata }).toEqual({
        ...normalizeFixture(item, 't'),
        provider: 'x',
        metadata: offline,
      });
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
          const pieces = readInPieces(wire, bytes, cuts);
          expect(pieces.envelope).toEqual(whole.envelope);
          expect(pieces.text).toBe(whole.text);
          // Tool-call arguments may arrive in other pieces; their whole text per call is the same.
          expect(joinedCalls(pieces.calls)).toEqual(joinedCalls(whole.calls));
        }),
        { numRuns: 60 },
      );
    },
  );
});

/** Tool-call deltas folded per call: its name and its whole arguments text. */
function joinedCalls(lines: readonly string[]): Record<string, string> {
  const calls: Record<string, string> = {};
  for (const line of lines) {
    const [kind, id, ...rest] = line.split(' ');
    const key = id as string;
    if (kind === 'start') calls[key] = `${rest.join(' ')}:`;
    else calls[key] = `${calls[key] ?? ''}${rest.join(' ')}`;
  }
  return calls;
}

describe('the native call keeps the gateway rules', () => {
  test('a provider that cannot be reached is PROVIDER_UNAVAILABLE, retried, and named without its address', async () => {
    const closed = await import('node:net').then(
      ({ createServer }) =>
        new Promise<number>((resolve) => {
          const server = createServer();
          server.listen(0, '127.0.0.1', () => {
            const { port } = server.address() as { port: number };
            server.close(() => resolve(port));
          });
        }),
    );
    const gateway = createGateway({
      providers: { openai: { baseURL: `http://127.0.0.1:${closed}/v1`, apiKey: 'sk-unreachable' } },
      retries: 1,
      retryBaseMs: 1,
    });
    const answer = await readEnvelope(
      await gateway.request('/v1/text', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
      }),
    );
    expect(answer.status).toBe(503);
    expect(answer.envelope).toMatchObject({
      success: false,
      error: { code: 'PROVIDER_UNAVAILABLE', details: { is_retryable: true } },
      metadata: { attempts: 2 },
    });
    expect(JSON.stringify(answer.envelope)).not.toContain(String(closed));
  });

  test('a request with provider_options goes through the AI SDK, whose options they are', () => {
    const wire = NATIVE_FORMATS['openai.chat']?.wire as WireFormat;
    const built = wire.buildRequest(
      { model: 'openai:gpt-4o-mini', input: 'Hi', provider_options: { openai: { user: 'u' } } } as never,
      { provider: 'openai', type: 'openai', modelId: 'gpt-4o-mini' },
    );
    expect(built).toEqual({ ok: false, reason: 'provider_options' });
  });
});

describe('/v1/text to Anthropic goes natively', () => {
  const ASK = {
    model: 'anthropic:claude-sonnet-4-5',
    system: 'Be brief.',
    messages: [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'toolu_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '{"celsius":4}' },
      { role: 'user', content: 'And tomorrow?' },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ],
    temperature: 0.4,
  };

  test.each([
    ['plain', 'anthropic.messages/success/text-with-prompt-cache.json', false],
    ['streamed', 'anthropic.messages/success/stream-text-and-tool.json', true],
  ] as const)(
    '%s: the provider receives the body verdict builds, and the answer means what the normalizer reads',
    async (_name, name, stream) => {
      replay.enqueue(fixture(name));
      const gateway = createGateway({ providers: providers(), retries: 0 });
      const body = { ...ASK, ...(stream ? { stream: true } : {}) };
      const response = await gateway.request('/v1/text', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const envelope = stream
        ? readStreamEnvelope(await response.text()).envelope
        : (await readEnvelope(response)).envelope;
      const sent = replay.requests.at(-1);
      const built = buildMessagesRequest(body as TextRequest, 'anthropic', 'claude-sonnet-4-5');
      if (built.ok !== true) throw new Error('The request was not built natively.');
      // The very body the native builder makes, sent with the format's headers and the key, and no AI SDK agent.
      expect(sent?.path).toBe('/v1/messages');
      expect(sent?.body).toEqual(built.request.body);
      expect(sent?.headers).toMatchObject({
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'structured-outputs-2025-11-13',
        'x-api-key': 'sk-ant-replay-secret',
      });
      expect(sent?.headers['user-agent'] ?? '').not.toMatch(/ai-sdk|^ai\//);
      expect((sent?.body as { stream?: unknown } | undefined)?.stream).toBe(stream ? true : undefined);
      const item = loadFixtures().find((each) => each.name === name) as ProviderFixture;
      const offline = withParsedToolArguments(normalizeFixture(item));
      expect(comparable(envelope)).toEqual(comparable({ ...offline, provider: 'anthropic' }));
    },
  );
});
