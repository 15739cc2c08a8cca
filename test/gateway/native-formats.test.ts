import fc from 'fast-check';
import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { anthropicMessagesWire } from '../../src/gateway/wire/anthropic-messages.js';
import { geminiWire } from '../../src/gateway/wire/gemini-wire.js';
import { openAiResponsesWire } from '../../src/gateway/wire/openai-responses-wire.js';
import type { WireDelta, WireFormat } from '../../src/gateway/wire/wire-format.js';
import { wireRouteOf } from '../../src/gateway/wire/wire-formats.js';
import type { UnifiedOutput } from '../../src/unified/index.js';
import { providersWithResponses, type ReplayProviders } from '../helpers/replay-providers.js';
import { loadFixtures, normalizeFixture, type ProviderFixture } from '../unified/fixture-corpus.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The native OpenAI Responses, Gemini and Anthropic Messages formats against the project's recorded answers: what the live path
 * reads of a body or a stream, in any chunking, is what `verdict normalize` reads of the same bytes; and through
 * the gateway, `/v1/text` answers with the same meaning.
 */

const TRACE_ID = 'trace-native-0001';

const FORMATS: Readonly<Record<string, WireFormat>> = {
  'openai.responses': openAiResponsesWire,
  'google.generate-content': geminiWire,
  'anthropic.messages': anthropicMessagesWire,
};

const fixtures = loadFixtures().filter((fixture) => Object.hasOwn(FORMATS, fixture.format));
const plain = fixtures.filter((fixture) => fixture.stream !== true);
const streams = fixtures.filter((fixture) => fixture.stream === true);

/** A stream fixture as the bytes a provider sends: its raw SSE, or its events as `data:` lines. */
function streamText(fixture: ProviderFixture): string {
  if (fixture.sse !== undefined) return fixture.sse;
  return (fixture.events ?? [])
    .map((event) => {
      const data = typeof event === 'string' ? event : JSON.stringify(event);
      const type = (event as { type?: unknown } | null)?.type;
      // The Responses and Messages APIs name each event; Gemini sends data lines only.
      return typeof type === 'string' ? `event: ${type}\ndata: ${data}\n\n` : `data: ${data}\r\n\r\n`;
    })
    .join('');
}

/** The envelope without what differs between two readings of the same bytes: the timing. */
function timeless(envelope: UnifiedOutput): unknown {
  const { latency_ms: _latency, ...metadata } = envelope.metadata as Record<string, unknown>;
  return { ...envelope, metadata };
}

/** The provider each format's normalizer names by default, as `verdict normalize` reports it. */
const PROVIDERS: Readonly<Record<string, string>> = {
  'openai.responses': 'openai',
  'google.generate-content': 'google',
  'anthropic.messages': 'anthropic',
};

function context(fixture: ProviderFixture) {
  return {
    provider: PROVIDERS[fixture.format] ?? fixture.format,
    traceId: TRACE_ID,
    status: fixture.status ?? 200,
    headers: fixture.headers ?? {},
  };
}

/** Read a stream fixture through the format's live reader, cut into pieces at `cuts` (byte offsets). */
function readLive(fixture: ProviderFixture, cuts: readonly number[] = []) {
  const bytes = new TextEncoder().encode(streamText(fixture));
  const reader = FORMATS[fixture.format]?.openStream(context(fixture));
  if (reader === undefined) throw new Error(`No native format for ${fixture.format}.`);
  const deltas: WireDelta[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    deltas.push(...reader.push(bytes.subarray(from, cut)));
    from = cut;
  }
  deltas.push(...reader.push(bytes.subarray(from)));
  return { deltas, envelope: reader.end() };
}

/** What the client heard: the text, and each tool call's name and arguments as they arrived. */
function heard(deltas: readonly WireDelta[]) {
  let text = '';
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const delta of deltas) {
    if (delta.type === 'text') text += delta.text;
    if (delta.type === 'tool_call_start') calls.set(delta.id, { name: delta.name, arguments: '' });
    if (delta.type === 'tool_call_delta') {
      const call = calls.get(delta.id);
      if (call === undefined) throw new Error(`Arguments for a call that never started: ${delta.id}.`);
      call.arguments += delta.arguments;
    }
  }
  return { text, calls };
}

/** A tool call's arguments as the JSON value they hold. */
function argumentsOf(call: { arguments?: unknown }): unknown {
  return typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments;
}

describe('native formats read recorded answers as verdict normalize does', () => {
  test('every format has recorded plain answers and streams', () => {
    for (const format of Object.keys(FORMATS)) {
      expect(plain.some((fixture) => fixture.format === format)).toBe(true);
      expect(streams.some((fixture) => fixture.format === format)).toBe(true);
    }
  });

  test.each(plain.map((fixture) => [fixture.name, fixture] as const))('plain %s', (_name, fixture) => {
    const wire = FORMATS[fixture.format] as WireFormat;
    const body = typeof fixture.body === 'string' ? fixture.body : JSON.stringify(fixture.body);
    const live = wire.readAnswer(
      { status: fixture.status ?? 200, headers: fixture.headers ?? {}, body: new TextEncoder().encode(body) },
      context(fixture),
    );
    expect(timeless(live)).toEqual(timeless(normalizeFixture(fixture, TRACE_ID)));
  });

  test.each(streams.map((fixture) => [fixture.name, fixture] as const))('streamed %s', (_name, fixture) => {
    const { deltas, envelope } = readLive(fixture);
    const offline = normalizeFixture(fixture, TRACE_ID);
    expect(timeless(envelope)).toEqual(timeless(offline));
    if (fixture.expectation === 'INVALID_PROVIDER_RESPONSE' && /truncated|cut/.test(fixture.name)) {
      // A stream that ends without its end-of-answer event: one code live and offline, worth another attempt.
      expect(envelope).toMatchObject({
        success: false,
        error: {
          code: 'INVALID_PROVIDER_RESPONSE',
          details: { reason: 'no_end_of_answer', is_retryable: true },
        },
      });
    }
    if (!envelope.success) return;
    // The client hears the answer's text and its calls as they arrive; the envelope says the same (an answer of
    // media only has a content the normalizer writes, which no delta carries).
    const { text, calls } = heard(deltas);
    const media = envelope.images.length + envelope.files.length + envelope.videos.length;
    if (media === 0) expect(text).toBe(envelope.content);
    const expected = (envelope.metadata.tool_calls ?? []) as {
      id?: string;
      name: string;
      arguments: unknown;
    }[];
    const streamedWhole = expected.filter((call) => call.id !== undefined && calls.has(call.id));
    for (const call of streamedWhole) {
      const live = calls.get(call.id as string);
      expect(live?.name).toBe(call.name);
      expect(JSON.parse(live?.arguments ?? 'null')).toEqual(argumentsOf(call));
    }
  });

  test.each(streams.map((fixture) => [fixture.name, fixture] as const))(
    'any chunking of %s gives the same envelope and deltas',
    (_name, fixture) => {
      const size = new TextEncoder().encode(streamText(fixture)).length;
      const whole = readLive(fixture);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: size }), { maxLength: 24 }), (cuts) => {
          const live = readLive(fixture, cuts);
          expect(timeless(live.envelope)).toEqual(timeless(whole.envelope));
          expect(heard(live.deltas)).toEqual(heard(whole.deltas));
        }),
        { numRuns: 40 },
      );
    },
  );
});

describe('the native routes', () => {
  test('the Responses API, the Gemini API with a key and the Messages API are spoken natively', () => {
    expect(wireRouteOf({ id: 'anthropic', type: 'anthropic' })).toMatchObject({
      wire: anthropicMessagesWire,
      auth: 'x-api-key',
      defaultBaseURL: 'https://api.anthropic.com/v1',
    });
    expect(wireRouteOf({ id: 'openai', type: 'openai', api: 'responses' })?.wire).toBe(openAiResponsesWire);
    expect(wireRouteOf({ id: 'google', type: 'google' })).toMatchObject({
      wire: geminiWire,
      auth: 'x-goog-api-key',
      defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta',
    });
    expect(wireRouteOf({ id: 'vertex', type: 'google-vertex' })).toBeUndefined();
  });
});

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

/** The target of each format at the replay server. */
const TARGETS: Readonly<Record<string, string>> = {
  'openai.responses': 'openai-responses:gpt-4.1',
  'google.generate-content': 'google:gemini-2.5-flash',
  'anthropic.messages': 'anthropic:claude-sonnet-4-5',
};

/** The path each format is asked at. */
const PATHS: Readonly<Record<string, RegExp>> = {
  'openai.responses': /\/responses$/,
  'google.generate-content': /:(stream)?[gG]enerateContent/,
  'anthropic.messages': /\/v1\/messages$/,
};

async function post(body: Record<string, unknown>): Promise<Response> {
  const app = createGateway({
    providers: providersWithResponses(replay) as GatewayOptions['providers'],
    retries: 0,
  });
  return app.request('/v1/text', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

/** The meaning of an envelope the gateway and the normalizer both give: outcome, text, usage, calls, code. */
function meaningOf(envelope: UnifiedOutput): unknown {
  if (!envelope.success) return { success: false, code: envelope.error.code };
  const calls = (envelope.metadata.tool_calls ?? []) as { id?: string; name: string; arguments: unknown }[];
  return {
    success: true,
    content: envelope.content,
    usage: { input: envelope.usage.input_tokens, output: envelope.usage.output_tokens },
    finish_reason: envelope.metadata.finish_reason,
    tool_calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: argumentsOf(call) })),
  };
}

/** The fixtures a `/v1/text` answer can be compared on: answers to text requests (not background jobs). */
const served = fixtures.filter(
  (fixture) => !/queued|image-generation|image-only|tts|file-data-video|inline-image/.test(fixture.name),
);

describe('/v1/text on the native path', () => {
  test.each(served.map((fixture) => [fixture.name, fixture] as const))('%s', async (_name, fixture) => {
    const stream = fixture.stream === true;
    replay.enqueue(
      stream
        ? { status: fixture.status ?? 200, headers: fixture.headers ?? {}, sse: streamText(fixture) }
        : { status: fixture.status ?? 200, headers: fixture.headers ?? {}, body: fixture.body },
    );
    const response = await post({ model: TARGETS[fixture.format], input: 'Hi', stream });
    // A stream that fails before its first delta is answered as a plain failure, which may then be retried.
    const envelope =
      stream && response.headers.get('content-type')?.startsWith('text/event-stream') === true
        ? readStreamEnvelope(await response.text()).envelope
        : (await readEnvelope(response)).envelope;
    // The provider was asked natively (the AI SDK would name itself in the user agent), at the format's path.
    const sent = replay.requests[0];
    expect(sent?.headers['user-agent'] ?? '').not.toMatch(/^ai\//);
    expect(sent?.path).toMatch(PATHS[fixture.format] as RegExp);
    expect(meaningOf(envelope)).toEqual(meaningOf(normalizeFixture(fixture, TRACE_ID)));
  });
});

/** A structured answer, as each format's plain body carries the text `{"answer":…}`. */
function structuredBody(format: string, text: string): unknown {
  if (format === 'anthropic.messages')
    return {
      id: 'msg_s',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 3 },
    };
  return format === 'openai.responses'
    ? {
        id: 'resp_s',
        object: 'response',
        status: 'completed',
        model: 'gpt-4.1',
        output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }],
        usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 },
      }
    : {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
        modelVersion: 'gemini-2.5-flash',
      };
}

const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

describe('structured output on the native path', () => {
  test.each(Object.keys(TARGETS))(
    '%s: the schema is asked for and the answer checked against it',
    async (format) => {
      const ask = {
        model: TARGETS[format],
        input: 'Two plus two?',
        response_format: { type: 'json_schema', json_schema: { name: 'sum', schema: SCHEMA } },
      };
      replay.enqueue({ body: structuredBody(format, '{"answer":"4"}') });
      const good = (await readEnvelope(await post(ask))).envelope;
      expect(good).toMatchObject({ success: true, metadata: { object: { answer: '4' } } });
      const sent = replay.requests[0]?.body as Record<string, unknown>;
      expect(sent).toMatchObject(
        format === 'openai.responses'
          ? { text: { format: { type: 'json_schema', name: 'sum', schema: SCHEMA } } }
          : format === 'anthropic.messages'
            ? { output_config: { format: { type: 'json_schema', schema: SCHEMA } } }
            : { generationConfig: { responseMimeType: 'application/json', responseJsonSchema: SCHEMA } },
      );
      replay.enqueue({ body: structuredBody(format, '{"answer":4}') });
      const bad = (await readEnvelope(await post(ask))).envelope;
      expect(bad).toMatchObject({ success: false, error: { code: 'INVALID_PROVIDER_RESPONSE' } });
    },
  );
});

describe('reasoning on the native path', () => {
  test.each([
    [
      'google:gemini-2.5-flash',
      'google.generate-content/success/text-with-thoughts.json',
      'Thinking about rivers...',
    ],
    ['openai-responses:o3', undefined, 'The user adds two numbers.'],
    [
      'anthropic:claude-sonnet-4-5',
      'anthropic.messages/success/tool-use-with-thinking.json',
      'I should look this up.',
    ],
  ] as const)(
    '%s: reasoning is kept apart from the answer when asked for',
    async (model, path, reasoning) => {
      const body =
        path === undefined
          ? {
              id: 'resp_r',
              object: 'response',
              status: 'completed',
              model: 'o3',
              output: [
                { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: reasoning }] },
                { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Four.' }] },
              ],
              usage: { input_tokens: 5, output_tokens: 30, output_tokens_details: { reasoning_tokens: 20 } },
            }
          : loadFixtures().find((fixture) => fixture.name === path)?.body;
      replay.enqueue({ body }, { body });
      const asked = (await readEnvelope(await post({ model, input: 'Hi', reasoning_effort: 'high' })))
        .envelope;
      expect(asked).toMatchObject({ success: true, metadata: { reasoning } });
      expect(asked.success && asked.content).not.toContain(reasoning);
      const sent = replay.requests[0]?.body as Record<string, unknown>;
      expect(sent).toMatchObject(
        model.startsWith('google')
          ? { generationConfig: { thinkingConfig: { thinkingBudget: 24_576 } } }
          : model.startsWith('anthropic')
            ? // A share of the model's largest answer, added to the answer's own limit (held to the largest).
              { thinking: { type: 'enabled', budget_tokens: 38_400 }, max_tokens: 64_000 }
            : { reasoning: { effort: 'high', summary: 'detailed' } },
      );
      const unasked = (await readEnvelope(await post({ model, input: 'Hi' }))).envelope;
      expect(unasked.success).toBe(true);
      expect(unasked.metadata).not.toHaveProperty('reasoning');
    },
  );
});

describe('Responses stream deltas', () => {
  test('two message items are heard as the answer joins them, with a blank line between', () => {
    const message = (id: string, text: string) => [
      { type: 'response.output_item.added', item: { id, type: 'message', role: 'assistant', content: [] } },
      { type: 'response.output_text.delta', item_id: id, delta: text.slice(0, 3) },
      { type: 'response.output_text.delta', item_id: id, delta: text.slice(3) },
    ];
    const output = (id: string, text: string) => ({
      id,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text }],
    });
    const events = [
      ...message('msg_1', 'First part.'),
      ...message('msg_2', 'Second part.'),
      {
        type: 'response.completed',
        response: {
          id: 'resp_1',
          object: 'response',
          status: 'completed',
          output: [output('msg_1', 'First part.'), output('msg_2', 'Second part.')],
          usage: { input_tokens: 1, output_tokens: 4 },
        },
      },
    ];
    const fixture: ProviderFixture = {
      name: 'two-messages',
      format: 'openai.responses',
      expectation: 'success',
      stream: true,
      events,
    };
    const { deltas, envelope } = readLive(fixture);
    expect(envelope).toMatchObject({ success: true, content: 'First part.\n\nSecond part.' });
    expect(heard(deltas).text).toBe('First part.\n\nSecond part.');
  });
});
