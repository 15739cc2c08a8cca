// `npm run bench:cache-memory`: what the response cache holds in memory (docs/gateway.md, "Cache").
//
//   npm run build && node --expose-gc bench/cache-memory.mjs [--entries N] [--text-bytes B] [--dimensions D]
//                                                           [--requests N] [--concurrency C]
//
// Two parts, each measured after a full garbage collection (heap used and RSS of this process):
//   entries   N answers (default 20 000) written straight into one cache with no size limit: text answers of
//             about B characters (default 2000), then embeddings answers of D dimensions (default 1536). It
//             prints the bytes the cache counts for them (`bytesInMemory`, what `max_memory_bytes` bounds), the
//             heap they took, and — for comparison — the heap the same answers take held as parsed objects.
//   gateway   a gateway with the cache on, in front of the offline demo provider, answers N distinct text and
//             embeddings requests (default 10 000, C at a time, default 50), then the same N again (all hits):
//             heap and RSS after each round, the cache's counted bytes, and its hits and misses from /metrics.
// Run it on a quiet machine; `--entries 200 --requests 200` is a smoke run.
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  const lines = (await import('node:fs')).readFileSync(new URL(import.meta.url), 'utf8').split('\n');
  console.log(
    lines
      .slice(
        0,
        lines.findIndex((line) => !line.startsWith('//')),
      )
      .map((line) => line.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return Number(index >= 0 ? args[index + 1] : fallback);
};
const ENTRIES = option('entries', 20_000);
const TEXT_BYTES = option('text-bytes', 2000);
const DIMENSIONS = option('dimensions', 1536);
const REQUESTS = option('requests', 10_000);
const CONCURRENCY = option('concurrency', 50);
if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (npm run bench:cache-memory does).');
  process.exit(2);
}

const { ResponseCache } = await import('../dist/gateway/cache/response-cache.js');
const { resolveCacheSettings } = await import('../dist/gateway/config/cache-settings.js');
const { createGateway } = await import('../dist/gateway/index.js');
globalThis.AI_SDK_LOG_WARNINGS = false;

/** Heap used and RSS after a full collection, in bytes. */
function memory() {
  for (let round = 0; round < 3; round++) globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

const mib = (bytes) => Math.round((bytes / 1_048_576) * 10) / 10;

/** Words of varied lengths, so that no two answers share their text. */
function textOf(index, characters) {
  const words = [];
  let length = 0;
  for (let word = 0; length < characters; word++) {
    const next = `w${((index * 7919 + word * 104_729) % 1_000_003).toString(36)}`;
    words.push(next);
    length += next.length + 1;
  }
  return words.join(' ');
}

/** A vector of `dimensions` numbers as an embedding model gives them (unit length, full precision). */
function vectorOf(index, dimensions) {
  const values = Array.from({ length: dimensions }, (_, at) => Math.sin(index * 0.37 + at * 1.13));
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  return values.map((value) => value / norm);
}

function textAnswer(index) {
  return {
    envelope: {
      success: true,
      content: textOf(index, TEXT_BYTES),
      provider: 'openai',
      usage: { input_tokens: 420, output_tokens: Math.ceil(TEXT_BYTES / 4) },
      metadata: {
        trace_id: `trace-${index.toString(16).padStart(12, '0')}`,
        model: 'gpt-4o-mini-2024-07-18',
        finish_reason: 'stop',
        provider_request_id: `chatcmpl-${index}`,
        latency_ms: 812,
        attempts: 1,
        target: 'openai:gpt-4o-mini',
        cost: { usd: 0.000663, source: 'genai-prices', model: 'gpt-4o-mini' },
      },
      images: [],
      files: [],
      videos: [],
    },
  };
}

function embeddingsAnswer(index) {
  return {
    envelope: {
      success: true,
      content: `1 embedding of ${DIMENSIONS} dimensions.`,
      provider: 'openai',
      usage: { input_tokens: 9, output_tokens: 0 },
      metadata: {
        trace_id: `trace-${index.toString(16).padStart(12, '0')}`,
        model: 'text-embedding-3-small',
        embeddings: [vectorOf(index, DIMENSIONS)],
        attempts: 1,
        target: 'openai:text-embedding-3-small',
      },
      images: [],
      files: [],
      videos: [],
    },
  };
}

/** Fill a cache with `count` answers made by `make`; then hold the same answers as objects, for comparison. */
async function measureEntries(label, count, make) {
  const settings = {
    ...resolveCacheSettings({}),
    maxEntryBytes: Number.MAX_SAFE_INTEGER,
    maxMemoryBytes: Number.MAX_SAFE_INTEGER,
  };
  const before = memory();
  let cache = new ResponseCache(settings);
  for (let index = 0; index < count; index++) {
    const key = (index * 2_654_435_761).toString(16).padStart(64, '0').slice(-64);
    await cache.write(key, make(index), 300);
  }
  const filled = memory();
  const counted = cache.bytesInMemory;
  cache = undefined;
  memory();
  const parsedBefore = memory();
  let parsed = Array.from({ length: count }, (_, index) => make(index));
  const parsedAfter = memory();
  const heldParsed = parsed.length;
  parsed = undefined;
  return {
    kind: label,
    entries: count,
    counted_mib: mib(counted),
    heap_mib: mib(filled.heapUsed - before.heapUsed),
    rss_mib: mib(filled.rss - before.rss),
    heap_bytes_per_entry: Math.round((filled.heapUsed - before.heapUsed) / count),
    counted_bytes_per_entry: Math.round(counted / count),
    as_objects_heap_mib: mib(parsedAfter.heapUsed - parsedBefore.heapUsed),
    as_objects_entries: heldParsed,
  };
}

/** Send `count` requests made by `make`, `CONCURRENCY` at a time. */
async function drive(app, count, make) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const { path, body } = make(index);
      const response = await app.request(path, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      if (response.status !== 200)
        throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
}

function metric(text, name) {
  const line = text.split('\n').find((each) => each.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

async function measureGateway() {
  const before = memory();
  const app = createGateway({
    providers: { demo: {} },
    cache: { ttl_s: 3600, max_memory_bytes: 4 * 1024 * 1024 * 1024 },
    log: () => undefined,
  });
  const request = (index) =>
    index % 2 === 0
      ? {
          path: '/v1/text',
          body: { model: 'demo:chat', input: `Question number ${index}: ${textOf(index, 200)}` },
        }
      : { path: '/openai/v1/embeddings', body: { model: 'demo:embed', input: textOf(index, 200) } };
  const rounds = [];
  for (const round of ['misses', 'hits']) {
    await drive(app, REQUESTS, request);
    const now = memory();
    const metrics = await (await app.request('/metrics')).text();
    rounds.push({
      round,
      requests: REQUESTS,
      heap_mib: mib(now.heapUsed - before.heapUsed),
      rss_mib: mib(now.rss - before.rss),
      counted_mib: mib(metric(metrics, 'verdict_gateway_cache_memory_bytes') ?? 0),
      entries: metric(metrics, 'verdict_gateway_cache_memory_entries'),
      hits: metric(metrics, 'verdict_gateway_cache_hits_total'),
      misses: metric(metrics, 'verdict_gateway_cache_misses_total'),
    });
  }
  return rounds;
}

const entries = [
  await measureEntries(`text (${TEXT_BYTES} characters)`, ENTRIES, textAnswer),
  await measureEntries(`embedding (${DIMENSIONS} dimensions)`, ENTRIES, embeddingsAnswer),
];
const gateway = await measureGateway();
console.log(JSON.stringify({ node: process.version, entries, gateway }, null, 2));
