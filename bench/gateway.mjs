// `npm run bench:gateway`: throughput and latency of `verdict gateway` against the same local mock provider
// (one fixed chat completion), next to direct requests to the mock and to Portkey's open-source gateway
// (@portkey-ai/gateway, pointed at the mock with its custom-host header). Everything runs on 127.0.0.1.
//
//   node bench/gateway.mjs [--requests N] [--soak N] [--concurrency 20,100]
//
// Each (target, concurrency) pair sends N requests (default 20,000) after a warm-up; then verdict gateway
// and Portkey each get a soak of --soak requests (default 100,000 in total, counting the timed ones) and their
// resident memory (VmRSS) is read. The mock and each gateway run in their own process; the load generator
// uses keep-alive connections, one per concurrent request.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const REQUESTS = Number(option('requests', '20000'));
const SOAK_TOTAL = Number(option('soak', '100000'));
const LEVELS = option('concurrency', '20,100').split(',').map(Number);
const WARMUP = 2000;
const loadAtStart = loadavg()[0];

// ---- the mock provider (a child process, so it does not share the load generator's event loop) ----------
const MOCK_SOURCE = `
import { createServer } from 'node:http';
const body = JSON.stringify({
  id: 'chatcmpl-bench', object: 'chat.completion', created: 1767225600, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_bench', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

function startProcess(command, argv, env, readyPattern, stream = 'stdout') {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`${argv.join(' ')} did not start: ${seen.slice(-500)}`)),
      30000,
    );
    const onData = (chunk) => {
      if (seen.length < 100000) seen += chunk.toString();
      const match = readyPattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child[stream].on('data', onData);
    // Drain both streams for the whole run: a full pipe would stall the server (verdict logs one line per request).
    child.stdout.resume();
    child.stderr.resume();
    child.on('exit', (code) =>
      reject(new Error(`${argv.join(' ')} exited with ${code}: ${seen.slice(-500)}`)),
    );
  });
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
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
        let size = 0;
        res.on('data', (chunk) => {
          size += chunk.length;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${target.name}: status ${res.statusCode}`));
          else resolve({ ms: performance.now() - started, size });
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
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const index = next++;
        if (index >= count) return;
        latencies[index] = (await send(agent, target)).ms;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { rps: count / seconds, p50: at(0.5), p99: at(0.99) };
}

// ---- the run -------------------------------------------------------------------------------------------
const mock = await startProcess(
  process.execPath,
  ['--input-type=module', '-e', MOCK_SOURCE],
  {},
  /^(\d+)\n/m,
);
const mockPort = Number(mock.match[1]);
const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi' }] });

const verdict = await startProcess(
  process.execPath,
  [join(ROOT, 'dist', 'cli', 'main.js'), 'gateway', '--port', '0'],
  { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `http://127.0.0.1:${mockPort}/v1` },
  /serving on http:\/\/127\.0\.0\.1:(\d+)/,
  'stderr',
);
const verdictPort = Number(verdict.match[1]);

let portkey;
let portkeyError;
try {
  const port = 18000 + Math.floor(Math.random() * 2000);
  portkey = await startProcess(
    process.execPath,
    [
      join(ROOT, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js'),
      `--port=${port}`,
      '--headless',
    ],
    { NODE_ENV: 'production' },
    /Ready for connections/,
  );
  portkey.port = port;
} catch (error) {
  portkeyError = error.message;
}

const targets = [
  {
    name: 'direct to the mock',
    port: mockPort,
    path: '/v1/chat/completions',
    body: chatBody,
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
  },
  {
    name: 'verdict gateway',
    port: verdictPort,
    path: '/v1/text',
    body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Say hi' }),
    headers: { 'content-type': 'application/json' },
    pid: verdict.child.pid,
  },
];
if (portkey) {
  targets.push({
    name: 'Portkey gateway',
    port: portkey.port,
    path: '/v1/chat/completions',
    body: chatBody,
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer sk-bench',
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': `http://127.0.0.1:${mockPort}/v1`,
    },
    pid: portkey.child.pid,
  });
}

const sent = new Map(targets.map((target) => [target.name, 0]));
const results = [];
for (const concurrency of LEVELS) {
  for (const target of targets) {
    await load(target, concurrency, WARMUP);
    sent.set(target.name, sent.get(target.name) + WARMUP);
  }
  // Interleaved: each target in turn, so a busy moment of the shared machine hits all of them alike.
  for (const target of targets) {
    const cpuBefore = target.pid === undefined ? 0 : cpuMs(target.pid);
    const figures = await load(target, concurrency, REQUESTS);
    figures.cpu = target.pid === undefined ? undefined : (cpuMs(target.pid) - cpuBefore) / REQUESTS;
    sent.set(target.name, sent.get(target.name) + REQUESTS);
    results.push({ target: target.name, concurrency, ...figures });
    process.stderr.write(
      `${target.name} @${concurrency}: ${figures.rps.toFixed(0)} req/s p50 ${figures.p50.toFixed(2)} ms p99 ${figures.p99.toFixed(2)} ms\n`,
    );
  }
}
const memory = [];
for (const target of targets.filter((candidate) => candidate.pid !== undefined)) {
  const remaining = SOAK_TOTAL - sent.get(target.name);
  if (remaining > 0) await load(target, 20, remaining);
  sent.set(target.name, Math.max(SOAK_TOTAL, sent.get(target.name)));
  memory.push({ target: target.name, requests: sent.get(target.name), rss: rssMiB(target.pid) });
}

verdict.child.kill('SIGTERM');
portkey?.child.kill('SIGTERM');
mock.child.kill('SIGTERM');

// ---- the report (Markdown, for BENCHMARKS.md) ----------------------------------------------------------
const direct = (concurrency) =>
  results.find((row) => row.target === 'direct to the mock' && row.concurrency === concurrency);
const lines = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average ${loadAtStart.toFixed(2)} at the start and ${loadavg()[0].toFixed(2)} at the end (a machine shared with other work).`,
  `${REQUESTS.toLocaleString('en')} timed requests per row after ${WARMUP.toLocaleString('en')} warm-up requests; keep-alive connections.`,
  '',
  '| target | concurrency | requests/s | p50 ms | p99 ms | p50 added over direct | p99 added over direct | gateway CPU ms per request |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map((row) => {
    const base = direct(row.concurrency);
    const added = (value, baseline) =>
      row.target === 'direct to the mock' ? '—' : (value - baseline).toFixed(2);
    const cpu = row.cpu === undefined ? '—' : row.cpu.toFixed(2);
    return `| ${row.target} | ${row.concurrency} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${added(row.p50, base.p50)} | ${added(row.p99, base.p99)} | ${cpu} |`;
  }),
  '',
  '| gateway | requests served | RSS after them |',
  '|---|---:|---:|',
  ...memory.map(
    (row) => `| ${row.target} | ${row.requests.toLocaleString('en')} | ${row.rss.toFixed(0)} MiB |`,
  ),
];
if (portkeyError) lines.push('', `Portkey could not be run: ${portkeyError}`);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
