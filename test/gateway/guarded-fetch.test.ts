import { describe, expect, test } from 'vitest';
import {
  createGuardedFetch,
  DEFAULT_UPSTREAM_BOUNDS,
  STREAM_REQUEST_HEADER,
  StreamTap,
} from '../../src/gateway/ai-sdk/guarded-fetch.js';
import { findUpstreamFault } from '../../src/gateway/ai-sdk/upstream-fault.js';
import { createRedactor } from '../../src/gateway/basics/redact-secrets.js';

/** A base fetch answering `chunks` as a stream of server-sent events, each chunk as one read. */
function sseAnswer(chunks: string[]): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
}

async function readAll(response: Response): Promise<unknown> {
  try {
    await response.text();
    return undefined;
  } catch (error) {
    return error;
  }
}

const streamed = { method: 'POST', headers: { [STREAM_REQUEST_HEADER]: '1' }, body: '{}' };

describe('createGuardedFetch', () => {
  test('finds the end signal whatever the line endings and chunk boundaries', async () => {
    for (const chunks of [
      ['data: {"a":1}\r\n\r\ndata: [DO', 'NE]\r', '\n\r\n'],
      ['data: {"a":1}\r\rdata: [DONE]\r\r'],
      ['data: {"choices":[{"finish_reason":"stop"}]}\n\n'],
      ['event: message_stop\ndata: {"type":"message_stop"}\n\n'],
    ]) {
      const guarded = createGuardedFetch(DEFAULT_UPSTREAM_BOUNDS, sseAnswer(chunks));
      expect(
        await readAll(await guarded('http://provider.test/v1', streamed)),
        chunks.join('|'),
      ).toBeUndefined();
    }
  });

  test('a model output that spells an end signal inside its JSON text does not end the stream', async () => {
    const guarded = createGuardedFetch(
      DEFAULT_UPSTREAM_BOUNDS,
      sseAnswer(['data: {"choices":[{"delta":{"content":"\\"finish_reason\\":\\"stop\\" [DONE]"}}]}\n\n']),
    );
    const fault = findUpstreamFault(await readAll(await guarded('http://provider.test/v1', streamed)));
    expect(fault?.details).toEqual({ reason: 'no_end_of_answer' });
  });

  test("keeps the data of a stream's first error event for the call's tap, across chunk boundaries", async () => {
    const cases: [string[], unknown][] = [
      [
        [
          'data: {"choices":[]}\n\nevent: error\ndata: {"message":"Ser',
          'vice Unavailable","status_code":503}\n\n',
        ],
        { message: 'Service Unavailable', status_code: 503 },
      ],
      [
        ['data: {"error": {"message":"first"}}\r\n\r\n', 'data: {"error": {"message":"second"}}\r\n\r\n'],
        { error: { message: 'first' } },
      ],
      [
        ['event: error\ndata: {"type":"error",\ndata: "error":{"type":"overloaded_error"}}\n\n'],
        { type: 'error', error: { type: 'overloaded_error' } },
      ],
      [['data: {"choices":[{"delta":{"content":"\\"type\\":\\"error\\""}}]}\n\ndata: [DONE]\n\n'], undefined],
    ];
    for (const [chunks, expected] of cases) {
      const tap = new StreamTap();
      const guarded = createGuardedFetch(DEFAULT_UPSTREAM_BOUNDS, sseAnswer(chunks));
      await readAll(
        await guarded('http://provider.test/v1', {
          ...streamed,
          headers: { [STREAM_REQUEST_HEADER]: tap.id },
        }),
      );
      tap.detach();
      expect(tap.errorEvent, chunks.join('|')).toEqual(expected);
    }
  });

  test('answers that are not streams share one byte budget: past it a call fails, and bytes return when a body is over', async () => {
    // Each answer's body is fed by the test, so that two are in flight at once.
    const feeds: ReadableStreamDefaultController<Uint8Array>[] = [];
    const base: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            feeds.push(controller);
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const guarded = createGuardedFetch({ ...DEFAULT_UPSTREAM_BOUNDS, maxInFlightBytes: 1000 }, base);
    const first = (
      await guarded('http://provider.test/v1', { method: 'POST', body: '{}' })
    ).body!.getReader();
    feeds[0]?.enqueue(new Uint8Array(600));
    expect((await first.read()).value?.byteLength).toBe(600);
    const second = await guarded('http://provider.test/v1', { method: 'POST', body: '{}' });
    feeds[1]?.enqueue(new Uint8Array(600));
    feeds[1]?.close();
    expect(findUpstreamFault(await readAll(second))).toMatchObject({
      failureCode: 'PROVIDER_UNAVAILABLE',
      details: { bound: 'max_in_flight_bytes', max_in_flight_bytes: 1000 },
      retryable: false,
    });
    feeds[0]?.close();
    expect((await first.read()).done).toBe(true);
    const third = await guarded('http://provider.test/v1', { method: 'POST', body: '{}' });
    feeds[2]?.enqueue(new Uint8Array(900));
    feeds[2]?.close();
    expect((await third.arrayBuffer()).byteLength).toBe(900);
  });

  test('an answer to a plain call, or an error status, is bounded as a plain body even when it says it is a stream', async () => {
    const events = Array.from({ length: 40 }, () => `data: {"text":"${'x'.repeat(100)}"}\n\n`);
    const guarded = createGuardedFetch(
      { ...DEFAULT_UPSTREAM_BOUNDS, maxResponseBytes: 1000 },
      sseAnswer(events),
    );
    const plain = await guarded('http://provider.test/v1', { method: 'POST', body: '{}' });
    expect(findUpstreamFault(await readAll(plain))).toMatchObject({
      details: { bound: 'max_response_bytes', max_response_bytes: 1000 },
    });
    // The same answer to a call that asked for a stream is read under the stream bounds.
    const asked = await guarded('http://provider.test/v1', streamed);
    expect(findUpstreamFault(await readAll(asked))).toMatchObject({
      details: { reason: 'no_end_of_answer' },
    });
    // An error status is an error body, read whole, so bounded as one even on a call that asked for a stream.
    const failing: typeof fetch = async (input, init) => {
      const answer = await sseAnswer(events)(input, init);
      return new Response(answer.body, { status: 500, headers: answer.headers });
    };
    const refused = await createGuardedFetch({ ...DEFAULT_UPSTREAM_BOUNDS, maxResponseBytes: 1000 }, failing)(
      'http://provider.test/v1',
      streamed,
    );
    expect(findUpstreamFault(await readAll(refused))).toMatchObject({
      details: { bound: 'max_response_bytes', max_response_bytes: 1000 },
    });
  });

  test('the stream-request header is not sent to the provider', async () => {
    let sent: Headers | undefined;
    const guarded = createGuardedFetch(DEFAULT_UPSTREAM_BOUNDS, async (_input, init) => {
      sent = new Headers(init?.headers);
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    });
    await guarded('http://provider.test/v1', {
      headers: { [STREAM_REQUEST_HEADER]: '1', 'x-other': 'kept' },
    }).catch(() => undefined);
    expect(sent?.has(STREAM_REQUEST_HEADER)).toBe(false);
    expect(sent?.get('x-other')).toBe('kept');
  });

  test('a same-origin redirect of a GET is followed once, a second one is refused', async () => {
    const asked: string[] = [];
    const guarded = createGuardedFetch(DEFAULT_UPSTREAM_BOUNDS, async (input) => {
      asked.push(String(input));
      return new Response(null, { status: 302, headers: { location: `/next-${asked.length}` } });
    });
    const error = await guarded('http://provider.test/v1/operation').catch((caught: unknown) => caught);
    expect(asked).toEqual(['http://provider.test/v1/operation', 'http://provider.test/next-1']);
    expect(findUpstreamFault(error)).toMatchObject({
      failureCode: 'PROVIDER_ERROR',
      details: { http_status: 302, redirect: 'same_origin' },
    });
  });
});

describe('createRedactor', () => {
  test('removes configured secrets and key shapes, keeps ordinary words', () => {
    const { redact, redactConfigured } = createRedactor(['my-configured-secret-value', 'short']);
    expect(
      redact('key my-configured-secret-value, Bearer abc.def-123, sk-proj-AbC123xyz, ?key=AIzaSyD0 short'),
    ).toBe('key [redacted], Bearer [redacted], [redacted], ?key=[redacted] short');
    expect(redactConfigured('print("sk-example-in-code") my-configured-secret-value')).toBe(
      'print("sk-example-in-code") [redacted]',
    );
  });
});
