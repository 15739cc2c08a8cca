import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { parseJsonRequest, readBodyBytes } from './read-request.js';

const schema = z.strictObject({ model: z.string().min(1), n: z.number().int().optional() });
const bytes = (text: string) => new TextEncoder().encode(text);

function streamed(chunks: string[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(bytes(chunk));
      controller.close();
    },
  });
  return new Request('http://gateway.test/v1/text', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

describe('readBodyBytes', () => {
  test('reads a body with its declared length', async () => {
    const request = new Request('http://gateway.test/', { method: 'POST', body: '{"model":"m"}' });
    expect(await readBodyBytes(request, 100)).toEqual({ ok: true, value: bytes('{"model":"m"}') });
  });

  test('refuses a declared length over the limit before reading', async () => {
    const request = new Request('http://gateway.test/', {
      method: 'POST',
      body: 'x'.repeat(20),
      headers: { 'content-length': '20' },
    });
    const read = await readBodyBytes(request, 10);
    expect(read).toMatchObject({
      ok: false,
      problem: { code: 'PAYLOAD_TOO_LARGE', details: { max_body_bytes: 10 } },
    });
    expect(request.bodyUsed).toBe(false);
  });

  test('stops reading a streamed body at the limit', async () => {
    const read = await readBodyBytes(streamed(['12345', '67890', 'abcde']), 8);
    expect(read).toMatchObject({ ok: false, problem: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  test('joins a streamed body within the limit, and reads no body as empty', async () => {
    expect(await readBodyBytes(streamed(['{"mo', 'del":"m"}']), 100)).toEqual({
      ok: true,
      value: bytes('{"model":"m"}'),
    });
    const none = await readBodyBytes(new Request('http://gateway.test/', { method: 'POST' }), 100);
    expect(none).toEqual({ ok: true, value: new Uint8Array() });
  });
});

describe('parseJsonRequest', () => {
  test('gives the validated value', () => {
    expect(parseJsonRequest(bytes('{"model":"openai:x","n":2}'), schema)).toEqual({
      ok: true,
      value: { model: 'openai:x', n: 2 },
    });
  });

  test('an empty body, a body that is not JSON and a body that is not UTF-8 are VALIDATION_ERROR', () => {
    for (const body of [new Uint8Array(), bytes('{"model":'), new Uint8Array([0x7b, 0xff, 0x7d])]) {
      expect(parseJsonRequest(body, schema)).toMatchObject({
        ok: false,
        problem: { code: 'VALIDATION_ERROR' },
      });
    }
  });

  test('lists every problem with its JSON Pointer: duplicates, unknown members, wrong types', () => {
    const read = parseJsonRequest(bytes('{"model":"a","n":"two","extra/x":1,"o":{"a/b":1,"a/b":2}}'), schema);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    const problems = read.problem.details.problems as { path: string; message: string }[];
    expect(problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining(['/n', '/extra~1x', '/o']),
    );
    expect(problems).toContainEqual({
      path: '/o',
      message: 'The object at /o names the member "a/b" more than once.',
    });
  });

  test('refuses a body nested deeper than requests ever are', () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    expect(parseJsonRequest(bytes(`{"model":"m","n":${deep}}`), schema)).toMatchObject({
      ok: false,
      problem: { code: 'VALIDATION_ERROR' },
    });
  });
});
