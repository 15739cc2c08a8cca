// `npm run bench:gateway`: what `verdict gateway` costs in front of a provider, next to its peer and its floors.
//
//   node bench/gateway.mjs [--requests N] [--rounds N] [--concurrency 20,100] [--shapes openai,anthropic]
//                          [--modes plain,stream] [--soak N] [--warmup N] [--force] [--baseline DIR]
//                          [--targets direct,floor,ai-sdk,verdict,baseline,portkey,otel,cache-hit,cache-miss]
//                          [--otel] [--cache]
//
// One fake provider process answers OpenAI chat completions and Anthropic messages, plain and streamed. In front
// of it, each in its own process: `verdict gateway`; Portkey's open-source gateway (@portkey-ai/gateway); the
// floor, a minimal node:http server forwarding the body over an undici keep-alive pool; and the same minimal
// server calling the provider through the AI SDK (`generateText` / `streamText`), which is the AI SDK's own share.
// Servers write their logs to /dev/null, never to a pipe this process reads. Targets are interleaved in rounds
// (the order turns each round) so that a busy moment hits all of them alike; each figure is the median of the
// rounds with the spread beside it. Server CPU comes from /proc; the load generator's own CPU is reported too,
// since on two cores it competes with the servers. Everything runs on 127.0.0.1.
//
// `--baseline DIR` adds a second verdict build as one more target, "verdict gateway (baseline)": DIR is another
// checkout (its `dist/cli/main.js`, built) or that file itself, so that a change's CPU per request is compared
// with the build before it in the same rounds, on the same machine load.
//
// `--otel` adds "verdict gateway (OpenTelemetry)": the same build exporting its spans and metrics over OTLP/HTTP
// (protobuf) to a sink process that answers every export at once, so that tracing's CPU per request is measured
// next to the gateway without it in the same rounds.
//
// `--cache` adds a `verdict gateway --cache` as two more targets: "hits", the same request again and again (all
// but the first are answered from the cache), and "no-cache", each request with `cache-control: no-cache` (the
// provider answers and the answer is stored: a miss's work), so that a hit's latency and CPU read against a miss's.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkQuietMachine, median, spread } from './quiet-machine.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const REQUESTS = Number(option('requests', '2000'));
const ROUNDS = Number(option('rounds', '5'));
const LEVELS = option('concurrency', '20,100').split(',').map(Number);
const SHAPES = option('shapes', 'openai,anthropic').split(',');
const MODES = option('modes', 'plain,stream').split(',');
const SOAK_TOTAL = Number(option('soak', '100000'));
const WARMUP = Number(option('warmup', '1000'));
const BASELINE = option('baseline', undefined);
/** Which targets are timed (all by default): a narrower run compares two of them in more rounds. */
const TARGET_KEYS = [
  'direct',
  'floor',
  'ai-sdk',
  'verdict',
  'verdict-reuse',
  'dropin',
  'baseline',
  'portkey',
  'otel',
  'cache-hit',
  'cache-miss',
];
const OTEL = args.includes('--otel');
const CACHE = args.includes('--cache');
const TARGETS = new Set(option('targets', TARGET_KEYS.join(',')).split(','));
if (!OTEL) TARGETS.delete('otel');
for (const key of TARGETS) {
  if (!TARGET_KEYS.includes(key))
    throw new Error(`--targets: ${key} is not one of ${TARGET_KEYS.join(', ')}`);
}
/** The `main.js` of the baseline build, from a checkout or the file itself. */
function baselineMain(place) {
  const path = resolve(place);
  const main = existsSync(path) && statSync(path).isDirectory() ? join(path, 'dist', 'cli', 'main.js') : path;
  if (!existsSync(main)) throw new Error(`--baseline: no built verdict at ${main} (run npm run build there)`);
  return main;
}
const BASELINE_MAIN = BASELINE === undefined ? undefined : baselineMain(BASELINE);
const machine = checkQuietMachine(args);
/** `--profile DIR`: the verdict gateway writes a V8 CPU profile there when it stops. */
const PROFILE = option('profile', undefined);
const profileArgs = PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE)}`];
if (PROFILE !== undefined) mkdirSync(resolve(PROFILE), { recursive: true });

// ---- the fake provider ---------------------------------------------------------------------------------
const PROVIDER_SOURCE = `
import { createServer } from 'node:http';
const text = 'Hello! How can I help you today?';
const words = text.split(' ').map((word, index) => (index === 0 ? word : ' ' + word));
const openaiJson = JSON.stringify({
  id: 'chatcmpl-bench', object: 'chat.completion', created: 1767225600, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
});
const chunk = (delta, finish) => 'data: ' + JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk',
  created: 1767225600, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] }) + '\\n\\n';
const openaiSse = chunk({ role: 'assistant', content: '' }, null) + words.map((w) => chunk({ content: w }, null)).join('')
  + chunk({}, 'stop') + 'data: ' + JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1767225600,
  model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 } }) + '\\n\\ndata: [DONE]\\n\\n';
const anthropicJson = JSON.stringify({
  id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null,
  usage: { input_tokens: 9, output_tokens: 9 },
});
const event = (type, data) => 'event: ' + type + '\\ndata: ' + JSON.stringify({ type, ...data }) + '\\n\\n';
const anthropicSse = event('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant',
  model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } })
  + event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
  + words.map((w) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: w } })).join('')
  + event('content_block_stop', { index: 0 })
  + event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } })
  + event('message_stop', {});
const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    const streamed = Buffer.concat(parts).includes('"stream":true');
    const anthropic = req.url.endsWith('/messages');
    const body = anthropic ? (streamed ? anthropicSse : anthropicJson) : streamed ? openaiSse : openaiJson;
    res.writeHead(200, {
      'content-type': streamed ? 'text/event-stream' : 'application/json',
      'x-request-id': 'req_bench', 'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 60000;
server.listen(Number(process.env.PORT), '127.0.0.1');
`;

// ---- the floor: a minimal server forwarding the body over an undici keep-alive pool ---------------------
const FLOOR_SOURCE = `
import { createServer } from 'node:http';
import { Pool } from 'undici';
const pool = new Pool(process.env.UPSTREAM, { connections: 128, pipelining: 1 });
const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', async () => {
    try {
      const answer = await pool.request({ path: process.env.UPSTREAM_PATH, method: 'POST', body: Buffer.concat(parts),
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench', 'x-api-key': 'sk-bench',
          'anthropic-version': '2023-06-01' } });
      res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] });
      for await (const part of answer.body) res.write(part);
      res.end();
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
});
server.keepAliveTimeout = 60000;
server.listen(Number(process.env.PORT), '127.0.0.1');
`;

// ---- the same minimal server through the AI SDK ---------------------------------------------------------
const AI_SDK_SOURCE = `
import { createServer } from 'node:http';
import { generateText, streamText } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
const model = process.env.SHAPE === 'anthropic'
  ? createAnthropic({ apiKey: 'sk-bench', baseURL: process.env.UPSTREAM + '/v1' })('claude-sonnet-4-5')
  : createOpenAI({ apiKey: 'sk-bench', baseURL: process.env.UPSTREAM + '/v1' }).chat('gpt-4o-mini');
const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', async () => {
    try {
      const { input, stream } = JSON.parse(Buffer.concat(parts).toString());
      if (stream) {
        const result = streamText({ model, prompt: input });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for await (const delta of result.textStream) res.write('data: ' + JSON.stringify({ delta }) + '\\n\\n');
        res.end('data: ' + JSON.stringify({ usage: await result.usage }) + '\\n\\n');
      } else {
        const result = await generateText({ model, prompt: input });
        const body = JSON.stringify({ success: true, content: result.text, usage: result.usage });
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      }
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
});
server.keepAliveTimeout = 60000;
server.listen(Number(process.env.PORT), '127.0.0.1');
`;

// ---- processes -----------------------------------------------------------------------------------------
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const children = [];
// Every server goes with this process, however it ends (a timeout's SIGTERM, Ctrl-C, an error).
const stopChildren = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('exit', stopChildren);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopChildren();
    process.exit(130);
  });
}
/** Starts a server with its output on /dev/null and waits until its port answers HTTP. */
async function startServer(name, argvOf, env, readyPath) {
  const port = await freePort();
  const child = spawn(process.execPath, argvOf(port), {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: 'ignore',
  });
  children.push(child);
  let exited;
  child.once('exit', (code) => {
    exited = code;
  });
  for (let tries = 0; tries < 300; tries++) {
    if (exited !== undefined) throw new Error(`${name} exited with ${exited} before it answered`);
    const answered = await new Promise((resolve) => {
      const probe = request({ host: '127.0.0.1', port, path: readyPath, method: 'GET' }, (res) => {
        res.resume();
        resolve(true);
      });
      probe.on('error', () => resolve(false));
      probe.end();
    });
    if (answered) return { name, port, pid: child.pid };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not answer on port ${port} within 30 s`);
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

// ---- the load generator --------------------------------------------------------------------------------
function send(agent, target) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port: target.port,
        path: target.path,
        method: 'POST',
        headers: target.headers,
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${target.name}: status ${res.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    req.on('error', reject);
    req.end(target.body);
  });
}

async function load(target, concurrency, count) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = new Float64Array(count);
  let next = 0;
  const cpuBefore = cpuMs(target.pid);
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const index = next++;
        if (index >= count) return;
        latencies[index] = await send(agent, target);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  agent.destroy();
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    rps: count / seconds,
    p50: at(0.5),
    p99: at(0.99),
    cpu: (cpuMs(target.pid) - cpuBefore) / count,
    loaderCpu: (own.user + own.system) / 1000 / count,
  };
}

// ---- the run -------------------------------------------------------------------------------------------
const provider = await startServer(
  'fake provider',
  () => ['--input-type=module', '-e', PROVIDER_SOURCE],
  {},
  '/',
);
const upstream = `http://127.0.0.1:${provider.port}`;
const MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-5' };
const PATHS = { openai: '/v1/chat/completions', anthropic: '/v1/messages' };
const json = { 'content-type': 'application/json' };

const verdictEnv = {
  OPENAI_API_KEY: 'sk-bench-0000000000',
  OPENAI_BASE_URL: `${upstream}/v1`,
  ANTHROPIC_API_KEY: 'sk-bench-0000000000',
  ANTHROPIC_BASE_URL: `${upstream}/v1`,
};
const verdict = await startServer(
  'verdict gateway',
  (port) => [...profileArgs, join(ROOT, 'dist', 'cli', 'main.js'), 'gateway', '--port', String(port)],
  verdictEnv,
  '/healthz',
);
const baseline =
  BASELINE_MAIN === undefined
    ? undefined
    : await startServer(
        'verdict gateway (baseline)',
        (port) => [BASELINE_MAIN, 'gateway', '--port', String(port)],
        verdictEnv,
        '/healthz',
      );
// An OTLP/HTTP sink: every export is read whole and answered 200 with an empty protobuf body.
const SINK_SOURCE = `
import { createServer } from 'node:http';
createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
}).listen(Number(process.env.PORT), '127.0.0.1');
`;
const sink = OTEL
  ? await startServer('OTLP sink', () => ['--input-type=module', '-e', SINK_SOURCE], {}, '/')
  : undefined;
const traced =
  sink === undefined
    ? undefined
    : await startServer(
        'verdict gateway (OpenTelemetry)',
        (port) => [join(ROOT, 'dist', 'cli', 'main.js'), 'gateway', '--port', String(port)],
        { ...verdictEnv, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}` },
        '/healthz',
      );
// The same build with provider connections kept alive (`upstream.reuseConnections`), which the default
// trades for the guarantee docs/gateway.md ("Security") describes: what one connection per call costs.
const REUSE_CONFIG = join(mkdtempSync(join(tmpdir(), 'verdict-bench-')), 'reuse.json');
writeFileSync(REUSE_CONFIG, JSON.stringify({ upstream: { reuseConnections: true } }));
const reusing = TARGETS.has('verdict-reuse')
  ? await startServer(
      'verdict gateway (provider connections kept alive)',
      (port) => [
        join(ROOT, 'dist', 'cli', 'main.js'),
        'gateway',
        '--config',
        REUSE_CONFIG,
        '--port',
        String(port),
      ],
      verdictEnv,
      '/healthz',
    )
  : undefined;
const cached = CACHE
  ? await startServer(
      'verdict gateway --cache',
      (port) => [join(ROOT, 'dist', 'cli', 'main.js'), 'gateway', '--cache', '--port', String(port)],
      verdictEnv,
      '/healthz',
    )
  : undefined;
let portkey;
let portkeyError;
try {
  portkey = await startServer(
    'Portkey gateway',
    (port) => [
      // Installed by `npm run bench:install` into bench/node_modules, not by the root install.
      join(ROOT, 'bench', 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js'),
      `--port=${port}`,
      '--headless',
    ],
    { NODE_ENV: 'production' },
    '/',
  );
} catch (error) {
  portkeyError = error.message;
}
const floors = {};
const sdkFloors = {};
for (const shape of SHAPES) {
  floors[shape] = await startServer(
    'minimal node:http + undici pool (the floor)',
    () => ['--input-type=module', '-e', FLOOR_SOURCE],
    { UPSTREAM: upstream, UPSTREAM_PATH: PATHS[shape] },
    '/',
  );
  sdkFloors[shape] = await startServer(
    'the same server through the AI SDK',
    () => ['--input-type=module', '-e', AI_SDK_SOURCE],
    { UPSTREAM: upstream, SHAPE: shape },
    '/',
  );
}

/** The targets of one provider shape and mode, each with the request it is sent. */
function targetsOf(shape, streamed) {
  const stream = streamed ? { stream: true } : {};
  const providerBody =
    shape === 'anthropic'
      ? JSON.stringify({
          model: MODELS[shape],
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Say hi' }],
          ...stream,
        })
      : JSON.stringify({ model: MODELS[shape], messages: [{ role: 'user', content: 'Say hi' }], ...stream });
  const verdictBody = JSON.stringify({ model: `${shape}:${MODELS[shape]}`, input: 'Say hi', ...stream });
  const targets = [
    {
      key: 'direct',
      ...provider,
      name: 'direct to the provider',
      path: PATHS[shape],
      body: providerBody,
      headers: json,
    },
    { key: 'floor', ...floors[shape], path: '/', body: providerBody, headers: json },
    {
      key: 'ai-sdk',
      ...sdkFloors[shape],
      path: '/',
      body: JSON.stringify({ input: 'Say hi', ...stream }),
      headers: json,
    },
    { key: 'verdict', ...verdict, path: '/v1/text', body: verdictBody, headers: json },
  ];
  // The same gateway in front of the provider's own client: the drop-in surface of the shape, where the
  // client's format is the provider's and the body is forwarded (docs/gateway.md, "Same-format forwarding").
  targets.push({
    key: 'dropin',
    ...verdict,
    name: `verdict gateway, ${shape === 'anthropic' ? 'Anthropic' : 'OpenAI'} client (forwarded)`,
    path: `/${shape}${PATHS[shape]}`,
    body: JSON.stringify({ ...JSON.parse(providerBody), model: `${shape}:${MODELS[shape]}` }),
    headers: json,
  });
  if (reusing) {
    targets.push({ key: 'verdict-reuse', ...reusing, path: '/v1/text', body: verdictBody, headers: json });
  }
  if (baseline) {
    targets.push({ key: 'baseline', ...baseline, path: '/v1/text', body: verdictBody, headers: json });
  }
  if (traced) {
    targets.push({ key: 'otel', ...traced, path: '/v1/text', body: verdictBody, headers: json });
  }
  if (cached) {
    targets.push(
      {
        key: 'cache-hit',
        ...cached,
        name: 'verdict gateway --cache (hits)',
        path: '/v1/text',
        body: verdictBody,
        headers: json,
      },
      {
        key: 'cache-miss',
        ...cached,
        name: 'verdict gateway --cache (no-cache: a miss)',
        path: '/v1/text',
        body: verdictBody,
        headers: { ...json, 'cache-control': 'no-cache' },
      },
    );
  }
  if (portkey) {
    targets.push({
      key: 'portkey',
      ...portkey,
      path: '/v1/chat/completions',
      body: JSON.stringify({
        model: MODELS[shape],
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Say hi' }],
        ...stream,
      }),
      headers: {
        ...json,
        authorization: 'Bearer sk-bench',
        'x-portkey-provider': shape,
        'x-portkey-custom-host': `${upstream}/v1`,
      },
    });
  }
  return targets.filter((target) => TARGETS.has(target.key));
}

const rows = [];
const failures = [];
for (const shape of SHAPES) {
  for (const mode of MODES) {
    const targets = [];
    for (const target of targetsOf(shape, mode === 'stream')) {
      // A target that cannot serve this mode at all (an answer that is not 200) is reported, not timed.
      try {
        await load(target, 20, WARMUP);
        targets.push(target);
      } catch (error) {
        failures.push(`${target.name}, ${shape} ${mode}: ${error.message}`);
      }
    }
    for (const concurrency of LEVELS) {
      const samples = new Map(targets.map((target) => [target.name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        // The order turns each round, so no target always runs right after the same neighbour.
        const order = targets.map((_, index) => targets[(index + round) % targets.length]);
        for (const target of order) samples.get(target.name).push(await load(target, concurrency, REQUESTS));
      }
      for (const target of targets) {
        const runs = samples.get(target.name);
        rows.push({ shape, mode, concurrency, target: target.name, runs });
        const rps = median(runs.map((run) => run.rps));
        process.stderr.write(`${shape} ${mode} c=${concurrency} ${target.name}: ${rps.toFixed(0)} req/s\n`);
      }
    }
  }
}

// Memory after a long run: each server is sent requests until it has answered SOAK_TOTAL of them.
const memory = [];
const soakTargets = targetsOf(SHAPES[0], false).filter((target) => target.name !== 'direct to the provider');
if (SOAK_TOTAL > 0) {
  for (const target of soakTargets) {
    const served = rows
      .filter((row) => row.target === target.name)
      .reduce((sum, row) => sum + row.runs.length * REQUESTS, WARMUP * MODES.length);
    if (SOAK_TOTAL > served) await load(target, 20, SOAK_TOTAL - served);
    memory.push({ target: target.name, requests: Math.max(served, SOAK_TOTAL), rss: rssMiB(target.pid) });
  }
}
// A profiled gateway writes its profile as it exits: wait for that before this process ends.
const exits = children.map((child) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((done) => child.once('exit', done)),
);
for (const child of children) child.kill('SIGTERM');
if (PROFILE !== undefined) await Promise.all(exits);
rmSync(dirname(REUSE_CONFIG), { recursive: true, force: true });

// ---- the report (Markdown, for BENCHMARKS.md) ----------------------------------------------------------
const figure = (row, key, digits) =>
  spread(
    row.runs.map((run) => run[key]),
    digits,
  );
const lines = [
  machine.summary(),
  ...(BASELINE_MAIN === undefined ? [] : [`Baseline build: ${BASELINE_MAIN}.`]),
  `${REQUESTS.toLocaleString('en')} requests per target and round, ${ROUNDS} rounds interleaved, after ${WARMUP.toLocaleString('en')} warm-up requests; keep-alive connections; median (min–max) of the rounds.`,
  '',
  '| provider | mode | c | target | requests/s | p50 ms | p99 ms | server CPU ms/request | load generator CPU ms/request |',
  '|---|---|---:|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.shape} | ${row.mode} | ${row.concurrency} | ${row.target} | ${figure(row, 'rps', 0)} | ${figure(row, 'p50', 2)} | ${figure(row, 'p99', 2)} | ${figure(row, 'cpu', 2)} | ${figure(row, 'loaderCpu', 2)} |`,
  ),
  '',
  'Ratios of medians within this run (— where a target was not run):',
  '',
  `| provider | mode | c | verdict ÷ Portkey req/s | verdict CPU ÷ floor CPU | kept-alive verdict ÷ Portkey req/s | kept-alive verdict CPU ÷ floor CPU | verdict CPU ÷ AI-SDK server CPU |${baseline ? ' verdict CPU ÷ baseline CPU |' : ''}`,
  `|---|---|---:|---:|---:|---:|---:|---:|${baseline ? '---:|' : ''}`,
];
const medianOf = (shape, mode, concurrency, name, key) => {
  const row = rows.find(
    (r) => r.shape === shape && r.mode === mode && r.concurrency === concurrency && r.target === name,
  );
  return row === undefined ? Number.NaN : median(row.runs.map((run) => run[key]));
};
const FLOOR = 'minimal node:http + undici pool (the floor)';
const REUSE = 'verdict gateway (provider connections kept alive)';
for (const shape of SHAPES) {
  for (const mode of MODES) {
    for (const concurrency of LEVELS) {
      const of = (name, key) => medianOf(shape, mode, concurrency, name, key);
      const show = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
      const ratios = [
        of('verdict gateway', 'rps') / of('Portkey gateway', 'rps'),
        of('verdict gateway', 'cpu') / of(FLOOR, 'cpu'),
        of(REUSE, 'rps') / of('Portkey gateway', 'rps'),
        of(REUSE, 'cpu') / of(FLOOR, 'cpu'),
        of('verdict gateway', 'cpu') / of('the same server through the AI SDK', 'cpu'),
        ...(baseline ? [of('verdict gateway', 'cpu') / of('verdict gateway (baseline)', 'cpu')] : []),
      ];
      lines.push(`| ${shape} | ${mode} | ${concurrency} | ${ratios.map(show).join(' | ')} |`);
    }
  }
}
if (memory.length > 0) {
  lines.push('', '| server | requests served | RSS after them |', '|---|---:|---:|');
  for (const row of memory)
    lines.push(`| ${row.target} | ${row.requests.toLocaleString('en')} | ${row.rss.toFixed(0)} MiB |`);
}
if (portkeyError) lines.push('', `Portkey could not be run: ${portkeyError}`);
for (const failure of failures) lines.push('', `Not timed: ${failure}.`);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
