import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { STREAM_LIMITS, validateUnifiedOutput } from '../../src/unified/index.js';
import { memoryIo } from '../helpers/memory-io.js';
import { converseEventStream } from '../unified/encode-event-stream.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-normalize-bounds-'));
  writeFileSync(join(dir, 'big.json'), `{"id":"x","pad":"${'x'.repeat(5000)}"}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A standard input that yields `chunk` up to `most` times and counts how many were taken: a reader that keeps
 * reading past its bound drains it (and the test sees so) instead of hanging on an endless stream.
 */
function source(chunk: string, most: number) {
  const taken = { chunks: 0 };
  const bytes = Buffer.from(chunk);
  const stdin = Readable.from(
    (function* () {
      for (; taken.chunks < most; taken.chunks++) yield bytes;
    })(),
  );
  return { stdin, taken };
}

async function normalize(argv: string[], stdin: NodeJS.ReadableStream) {
  const io = memoryIo({ cwd: dir });
  io.stdin = stdin;
  const status = await run(['normalize', ...argv], io);
  const envelope = JSON.parse(io.stdout.text());
  expect(validateUnifiedOutput(envelope).valid).toBe(true);
  return { status, envelope };
}

/** The failure every bound gives: INVALID_PROVIDER_RESPONSE with the bound in its details. */
function expectBound(envelope: Record<string, unknown>, limit: string, value: number) {
  expect(envelope).toMatchObject({
    success: false,
    provider: 'openai',
    error: {
      code: 'INVALID_PROVIDER_RESPONSE',
      details: { http_status: 200, limit, limit_value: value },
    },
  });
}

const DELTA =
  'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n';

describe('verdict normalize bounds', () => {
  test('an endless SSE line on standard input stops at --max-event-bytes, not at the end of memory', async () => {
    const { stdin, taken } = source(`data: {"a":"${'x'.repeat(16_375)}`, 10_000);
    const { status, envelope } = await normalize(
      ['--format', 'openai.chat', '--stream', '--max-event-bytes', '65536', '-'],
      stdin,
    );
    expect(status).toBe(1);
    expectBound(envelope, 'max_event_bytes', 65_536);
    // 16 KiB chunks: the fifth passes the bound, and reading stops there (with a chunk or two buffered ahead).
    expect(taken.chunks).toBeLessThan(10);
  });

  test('an event of many short data lines is bounded as a whole', async () => {
    const { stdin } = source('data: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"\n', 10_000);
    const { envelope } = await normalize(
      ['--format', 'openai.chat', '--stream', '--max-event-bytes', '10000', '-'],
      stdin,
    );
    expectBound(envelope, 'max_event_bytes', 10_000);
  });

  test('a stream of endless events stops at --max-events', async () => {
    const { stdin, taken } = source(DELTA, 1_000_000);
    const { envelope } = await normalize(
      ['--format', 'openai.chat', '--stream', '--max-events', '100', '-'],
      stdin,
    );
    expectBound(envelope, 'max_events', 100);
    expect(taken.chunks).toBeLessThan(200);
  });

  test('one JSON event per line counts each line as an event', async () => {
    const { stdin } = source('{"id":"c","object":"chat.completion.chunk","choices":[]}\n', 1_000);
    const { envelope } = await normalize(
      ['--format', 'openai.chat', '--stream', '--max-events', '10', '-'],
      stdin,
    );
    expectBound(envelope, 'max_events', 10);
  });

  test('a huge stream stops at --max-stream-bytes', async () => {
    const { stdin, taken } = source(DELTA.repeat(10), 1_000_000);
    const { envelope } = await normalize(
      ['--format', 'openai.chat', '--stream', '--max-stream-bytes', '100000', '-'],
      stdin,
    );
    expectBound(envelope, 'max_stream_bytes', 100_000);
    expect(taken.chunks).toBeLessThan(200);
  });

  test('a stream file larger than --max-stream-bytes is refused before it is read', async () => {
    const { envelope } = await normalize(
      ['--format', 'openai.chat', '--stream', '--max-stream-bytes', '1000', 'big.json'],
      Readable.from([]),
    );
    expectBound(envelope, 'max_stream_bytes', 1000);
  });

  test('a body larger than --max-body-bytes fails, from a file and from standard input', async () => {
    const fromFile = await normalize(
      ['--format', 'openai.chat', '--max-body-bytes', '1000', 'big.json'],
      Readable.from([]),
    );
    expectBound(fromFile.envelope, 'max_body_bytes', 1000);
    const { stdin, taken } = source('x'.repeat(1000), 1_000_000);
    const fromStdin = await normalize(['--format', 'openai.chat', '--max-body-bytes', '5000', '-'], stdin);
    expectBound(fromStdin.envelope, 'max_body_bytes', 5000);
    expect(taken.chunks).toBeLessThan(100);
  });

  test('a stream within its bounds is normalized as before', async () => {
    const done =
      'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    const text = DELTA.repeat(10) + done;
    const { status, envelope } = await normalize(
      [
        '--format',
        'openai.chat',
        '--stream',
        '--max-events',
        '12',
        '--max-stream-bytes',
        String(text.length),
        '-',
      ],
      Readable.from([Buffer.from(text)]),
    );
    expect(envelope).toMatchObject({ success: true, content: 'hi'.repeat(10) });
    expect(status).toBe(0);
  });

  test('AWS event-stream messages are counted and measured by their length prefix', async () => {
    const events = Array.from({ length: 20 }, () => ({
      contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'x' } },
    }));
    const bytes = converseEventStream([{ messageStart: { role: 'assistant' } }, ...events]);
    const counted = await normalize(
      ['--format', 'bedrock.converse', '--stream', '--max-events', '5', '-'],
      Readable.from([Buffer.from(bytes)]),
    );
    expect(counted.envelope).toMatchObject({
      provider: 'bedrock',
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { limit: 'max_events', limit_value: 5 } },
    });
    const measured = await normalize(
      ['--format', 'bedrock.converse', '--stream', '--max-event-bytes', '50', '-'],
      Readable.from([Buffer.from(bytes)]),
    );
    expect(measured.envelope).toMatchObject({
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { limit: 'max_event_bytes', limit_value: 50 } },
    });
  });

  test('documents its defaults in the help', async () => {
    const io = memoryIo({ cwd: dir });
    await run(['normalize', '--help'], io);
    const help = io.stdout.text();
    expect(help).toContain(`default: ${STREAM_LIMITS.maxBodyBytes}`);
    expect(help).toContain(`default: ${STREAM_LIMITS.maxStreamBytes}`);
    expect(help).toContain(`default: ${STREAM_LIMITS.maxEventBytes}`);
    expect(help).toContain(`default: ${STREAM_LIMITS.maxEvents}`);
  });
});
