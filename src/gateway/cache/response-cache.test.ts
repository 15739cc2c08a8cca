import { describe, expect, test } from 'vitest';
import type { UnifiedSuccess } from '../../unified/types.js';
import { hashCacheKey } from './cache-key.js';
import { type CacheSettings, resolveCacheSettings } from './cache-settings.js';
import { canonicalJson } from './canonical-json.js';
import { type CachedAnswer, ENTRY_OVERHEAD_BYTES, memoryBytesOf, ResponseCache } from './response-cache.js';

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
