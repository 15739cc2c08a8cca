import { describe, expect, test } from 'vitest';
import type { UnifiedSuccess } from '../../unified/types.js';
import { type CacheSettings, resolveCacheSettings } from '../config/cache-settings.js';
import { textRequestSchema } from '../request/request-schemas.js';
import { hashCacheKey, keyedEmbeddingsRequest, keyedTextRequest } from './cache-key.js';
import { canonicalJson } from './canonical-json.js';
import {
  answerOfEntry,
  type CachedAnswer,
  ENTRY_OVERHEAD_BYTES,
  entryTextOf,
  memoryBytesOf,
  ResponseCache,
} from './response-cache.js';

function answerOf(content: string): CachedAnswer {
  const envelope: UnifiedSuccess = {
    success: true,
    content,
    provider: 'openai',
    usage: { input_tokens: 1, output_tokens: 1 },
    metadata: { trace_id: 'trace-of-the-original' },
    images: [],
    files: [],
    videos: [],
  };
  return { envelope };
}

/** The bytes an answer takes in memory under a key of `key`'s length, as the cache counts them. */
function bytesOf(answer: CachedAnswer, key = 'one'): number {
  return memoryBytesOf(key, JSON.stringify(answer));
}

function settings(changes: Partial<CacheSettings> = {}): CacheSettings {
  return { ...(resolveCacheSettings({}) as CacheSettings), ...changes };
}

describe('canonicalJson', () => {
  test('writes members sorted at every depth, without whitespace, leaving absent and undefined members alike', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[2,{"e":0,"f":1}]},"b":1}',
    );
  });
});

describe('hashCacheKey', () => {
  const parts = {
    route: 'text',
    targets: ['openai:gpt-4o-mini'],
    request: { model: 'm', input: 'hi', temperature: 0 },
    scope: 'team-a',
    namespace: '',
  };

  test('is the same for the same request written in another order, and differs by scope, namespace and targets', async () => {
    const key = await hashCacheKey(parts);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashCacheKey({ ...parts, request: { temperature: 0, input: 'hi', model: 'm' } })).toBe(key);
    expect(await hashCacheKey({ ...parts, scope: 'team-b' })).not.toBe(key);
    expect(await hashCacheKey({ ...parts, namespace: 'run-2' })).not.toBe(key);
    expect(await hashCacheKey({ ...parts, targets: ['anthropic:claude'] })).not.toBe(key);
  });
});

describe('keyedTextRequest', () => {
  /** The key of a text request as the gateway reads it (`JSON.parse`, then the request schema). */
  async function keyOf(body: string): Promise<string> {
    const request = textRequestSchema.parse(JSON.parse(body));
    return hashCacheKey({
      route: 'text',
      targets: ['openai:gpt-4o-mini'],
      request: keyedTextRequest(request),
      scope: '',
      namespace: '',
    });
  }
  const BASE = {
    model: 'openai:gpt-4o-mini',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    temperature: 0,
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
  };

  test('member order at any depth, whitespace between tokens, escapes and number spellings do not change the key', async () => {
    const key = await keyOf(JSON.stringify(BASE));
    const written = `{
      "tools" : [ { "function": { "parameters": { "properties": {}, "type": "object" }, "name": "f" }, "type": "function" } ],
      "temperature": 0.0e0,
      "messages": [ { "content": [ { "text": "\u0048i", "type": "text" } ], "role": "user" } ],
      "model": "openai:gpt-4o-mini"
    }`;
    expect(await keyOf(written)).toBe(key);
  });

  test('members that do not change the answer are left out; the three names of the output maximum are one', async () => {
    const key = await keyOf(JSON.stringify({ ...BASE, max_tokens: 50 }));
    for (const same of [
      { ...BASE, max_output_tokens: 50 },
      { ...BASE, max_completion_tokens: 50, stream: true, stream_options: { include_usage: true } },
      { ...BASE, max_tokens: 50, user: 'end-user-7', n: 1, model: 'an-alias' },
    ]) {
      expect(await keyOf(JSON.stringify(same))).toBe(key);
    }
  });

  test('every parameter that changes the answer changes the key, and so does whitespace inside a text', async () => {
    const key = await keyOf(JSON.stringify(BASE));
    const changes: Record<string, unknown>[] = [
      { temperature: 0.1 },
      { top_p: 0.5 },
      { top_k: 3 },
      { seed: 7 },
      { stop: ['\n'] },
      { presence_penalty: 1 },
      { frequency_penalty: 1 },
      { max_tokens: 10 },
      { system: 'Be brief.' },
      { tool_choice: 'required' },
      { parallel_tool_calls: false },
      { response_format: { type: 'json_object' } },
      { reasoning_effort: 'low' },
      { service_tier: 'flex' },
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi ' }] }] },
      {
        tools: [
          { type: 'function', function: { name: 'g', parameters: { type: 'object', properties: {} } } },
        ],
      },
    ];
    const keys = await Promise.all(changes.map((change) => keyOf(JSON.stringify({ ...BASE, ...change }))));
    for (const [index, changed] of keys.entries())
      expect(changed, JSON.stringify(changes[index])).not.toBe(key);
    expect(new Set(keys).size).toBe(changes.length);
  });
});

describe('keyedEmbeddingsRequest', () => {
  test('one text and a list of it are one request; the encoding and the end user are left out', () => {
    const base = keyedEmbeddingsRequest({ model: 'a', input: 'text' });
    expect(
      keyedEmbeddingsRequest({ model: 'b', input: ['text'], encoding_format: 'base64', user: 'u' }),
    ).toEqual(base);
    expect(keyedEmbeddingsRequest({ model: 'a', input: 'text', dimensions: 8 })).not.toEqual(base);
    expect(keyedEmbeddingsRequest({ model: 'a', input: ['text', 'more'] })).not.toEqual(base);
  });
});

describe('ResponseCache', () => {
  test('evicts the least recently used entries by bytes, not by count', async () => {
    const one = answerOf('a'.repeat(100));
    const size = bytesOf(one);
    const cache = new ResponseCache(settings({ maxMemoryBytes: size * 2 + 10 }));
    await cache.write('one', one, 60);
    await cache.write('two', answerOf('b'.repeat(100)), 60);
    // Reading "one" makes "two" the least recently used.
    expect(await cache.read('one')).toBeDefined();
    await cache.write('three', answerOf('c'.repeat(100)), 60);
    expect(await cache.read('two')).toBeUndefined();
    expect(await cache.read('one')).toBeDefined();
    expect(await cache.read('three')).toBeDefined();
    expect(cache.bytesInMemory).toBeLessThanOrEqual(size * 2 + 10);
    expect(cache.stats.evictions).toBe(1);
    // One large entry pushes out several small ones.
    await cache.write('large', answerOf('d'.repeat(150)), 60);
    expect(cache.entriesInMemory).toBe(1);
    expect(cache.stats.evictions).toBe(3);
  });

  test('counts an entry as it is held: its key and JSON text (two bytes a character past Latin-1) and a record', async () => {
    const cache = new ResponseCache(settings());
    const latin = answerOf('café au lait');
    await cache.write('latin', latin, 60);
    const text = JSON.stringify(latin);
    expect(cache.bytesInMemory).toBe(ENTRY_OVERHEAD_BYTES + 'latin'.length + text.length);
    const wide = answerOf('東京の天気');
    await cache.write('wide', wide, 60);
    const wideText = JSON.stringify(wide);
    expect(cache.bytesInMemory - memoryBytesOf('latin', text)).toBe(
      ENTRY_OVERHEAD_BYTES + 'wide'.length + wideText.length * 2,
    );
    const hit = await cache.read('wide');
    expect(hit?.answer).toEqual(wide);
    // Each hit is parsed from the text: what one reader changes, the next one does not see.
    if (hit !== undefined) (hit.answer.envelope as { content: string }).content = 'changed';
    expect((await cache.read('wide'))?.answer.envelope.content).toBe('東京の天気');
  });

  test('keeps the vectors of an embeddings answer as float64 bytes: the same numbers, in less text', async () => {
    const vectors = [
      [0.1, -0.5, 1e-300, 5e-324, 0.30000000000000004, -0.006929283, 123456.789],
      Array.from({ length: 256 }, (_, index) => Math.sin(index) / 7),
    ];
    const answer = answerOf('2 embeddings of 7 dimensions.');
    const embedded: CachedAnswer = {
      envelope: { ...answer.envelope, metadata: { ...answer.envelope.metadata, embeddings: vectors } },
    };
    const text = entryTextOf(embedded);
    expect(text).not.toContain('0.30000000000000004');
    expect(text.length).toBeLessThan(JSON.stringify(embedded).length * 0.7);
    expect(answerOfEntry(text)).toEqual(embedded);
    // An answer without vectors is its JSON as it is.
    expect(entryTextOf(answer)).toBe(JSON.stringify(answer));
    const cache = new ResponseCache(settings());
    await cache.write('vectors', embedded, 60);
    expect((await cache.read('vectors'))?.answer.envelope.metadata.embeddings).toEqual(vectors);
    expect(() => answerOfEntry('{"envelope":{"metadata":{}},"vectors":["abc"]}')).toThrow(TypeError);
  });

  test('measures the entry size limit in UTF-8 bytes of the JSON', async () => {
    const ascii = answerOf('x'.repeat(30));
    const limit = new TextEncoder().encode(JSON.stringify(ascii)).byteLength;
    const cache = new ResponseCache(settings({ maxEntryBytes: limit }));
    expect(await cache.write('ascii', ascii, 60)).toBe(true);
    // The same number of characters, one of them two bytes long in UTF-8 and one of them four.
    expect(await cache.write('accent', answerOf(`é${'x'.repeat(29)}`), 60)).toBe(false);
    expect(await cache.write('emoji', answerOf(`🙂${'x'.repeat(28)}`), 60)).toBe(false);
    expect(await cache.write('shorter', answerOf(`🙂${'x'.repeat(26)}`), 60)).toBe(true);
    expect(cache.stats.tooLarge).toBe(2);
  });

  test('does not keep an answer larger than the entry size limit', async () => {
    const cache = new ResponseCache(settings({ maxEntryBytes: 200 }));
    expect(await cache.write('small', answerOf('x'), 60)).toBe(true);
    expect(await cache.write('big', answerOf('x'.repeat(300)), 60)).toBe(false);
    expect(await cache.read('big')).toBeUndefined();
    expect(cache.stats.tooLarge).toBe(1);
  });

  test('an entry answers until its TTL has passed on the clock, then is gone', async () => {
    let now = 1_000_000;
    const cache = new ResponseCache(settings(), { now: () => now });
    await cache.write('key', answerOf('hi'), 30);
    now += 29_999;
    const hit = await cache.read('key');
    expect(hit?.storedAt).toBe(1_000_000);
    expect(cache.ageS(hit?.storedAt ?? 0)).toBe(29);
    now += 1;
    expect(await cache.read('key')).toBeUndefined();
    expect(cache.bytesInMemory).toBe(0);
  });

  test('says which keys are being answered until their answer ends', async () => {
    const cache = new ResponseCache(settings());
    expect(cache.pending('key')).toBeUndefined();
    const end = cache.begin('key');
    const pending = cache.pending('key');
    expect(pending).toBeDefined();
    end();
    await pending;
    expect(cache.pending('key')).toBeUndefined();
  });
});
