// `npm run bench:mcp-http`: throughput, CPU and memory of `verdict mcp serve --http` under the official MCP
// client, next to its floors: a minimal MCP server on the same SDK with one trivial tool (what the SDK itself
// costs), and a plain node:http JSON-RPC echo (what HTTP and JSON cost). Everything runs on 127.0.0.1.
//
//   node bench/mcp-http.mjs [--calls N] [--rounds N] [--concurrency 50,200] [--soak N] [--quick] [--force]
//
// Each server runs in its own process. Targets are interleaved in rounds (the order turns each round) and each
// figure is the median of the rounds with the spread beside it; the server's CPU comes from /proc and the
// client's own CPU is reported too, since on two cores it competes with the servers. Then every server is
// called until it has answered --soak calls, and its RSS is read before and after. The protocol era is
// 2025-11-25 for all three (the echo speaks no more than that); verdict is measured on 2026-07-28 as well.
// The npm script silences MaxListenersExceededWarning: the client's transport hands one AbortSignal to every
// fetch, and undici drops its listener on that signal only when the request is garbage-collected.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connectClient, rssBytes, runCalls, startVerdictHttp } from './mcp-http-load.mjs';
import { checkQuietMachine, median, spread } from './quiet-machine.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const quick = args.includes('--quick');
const CALLS = Number(option('calls', quick ? '200' : '2000'));
const ROUNDS = Number(option('rounds', quick ? '2' : '5'));
const LEVELS = option('concurrency', '50,200').split(',').map(Number);
const SOAK = Number(option('soak', quick ? '1000' : '10000'));
const machine = checkQuietMachine(args);

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });

// ---- the floors ----------------------------------------------------------------------------------------
// The SDK's floor: the same HTTP handler verdict uses, one tool that answers a fixed contract result.
const SDK_FLOOR_SOURCE = `
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
const factory = () => {
  const server = new McpServer({ name: 'floor', version: '1.0.0' });
  server.registerTool('validate_result', { inputSchema: z.object({ document: z.unknown() }) }, async () => ({
    content: [{ type: 'text', text: '{"success":true,"message":"ok"}' }],
    structuredContent: { success: true, message: 'ok' },
  }));
  return server;
};
const handler = createMcpHandler(factory);
const origin = 'http://127.0.0.1:' + process.env.PORT;
createServer(async (req, res) => {
  const parts = [];
  for await (const part of req) parts.push(part);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = req.method === 'POST' ? Buffer.concat(parts) : undefined;
  const response = await handler.fetch(new Request(origin + req.url, { method: req.method, headers, body }));
  res.writeHead(response.status, [...response.headers].flat());
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write('serving MCP\\n'));
`;

// HTTP and JSON alone: answers initialize, tools/call and everything else with fixed JSON-RPC results.
const ECHO_SOURCE = `
import { createServer } from 'node:http';
createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const message = JSON.parse(Buffer.concat(parts).toString());
    if (message.id === undefined) return res.writeHead(202).end();
    const result = message.method === 'initialize'
      ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'echo', version: '1.0.0' } }
      : message.method === 'tools/call'
        ? { content: [{ type: 'text', text: '{"success":true,"message":"ok"}' }], structuredContent: { success: true, message: 'ok' } }
        : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write('serving MCP\\n'));
`;

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

/** Starts a floor server (its output unread but for the ready line) and resolves once it listens. */
async function startFloor(name, source) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise((resolve, reject) => {
    child.stderr.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  child.stderr.resume();
  return { name, child, url: new URL(`http://127.0.0.1:${port}/mcp`), stop: () => child.kill('SIGTERM') };
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const verdict = await startVerdictHttp();
// Every server goes with this process, however it ends (a timeout's SIGTERM, Ctrl-C, an error).
const servers = [verdict.child];
process.on('exit', () => {
  for (const child of servers) child.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const verdictServer = { name: '`verdict mcp serve --http`', child: verdict.child, stop: verdict.stop };
const sdkFloor = await startFloor('minimal server on the same SDK (the SDK floor)', SDK_FLOOR_SOURCE);
const echo = await startFloor('plain node:http JSON-RPC echo', ECHO_SOURCE);
servers.push(sdkFloor.child, echo.child);
const targets = [
  {
    ...verdictServer,
    name: `${verdictServer.name}, 2026-07-28`,
    client: await connectClient(verdict.url, { pin: true }),
  },
  {
    ...verdictServer,
    name: `${verdictServer.name}, 2025-11-25`,
    client: await connectClient(verdict.url, { pin: false }),
  },
  { ...sdkFloor, client: await connectClient(sdkFloor.url, { pin: false }) },
  { ...echo, client: await connectClient(echo.url, { pin: false }) },
];

async function measure(target, concurrency, calls) {
  const pid = target.child.pid;
  const cpuBefore = cpuMs(pid);
  const ownBefore = process.cpuUsage();
  const run = await runCalls(target.client, { total: calls, concurrency });
  const own = process.cpuUsage(ownBefore);
  if (run.errors.length > 0) throw new Error(`${target.name}: ${run.errors.slice(0, 3).join(' | ')}`);
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return {
    rate: calls / run.seconds,
    p50: sorted[Math.floor(sorted.length / 2)],
    p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))],
    cpu: (cpuMs(pid) - cpuBefore) / calls,
    clientCpu: (own.user + own.system) / 1000 / calls,
  };
}

for (const target of targets) await measure(target, 50, Math.min(500, CALLS));
const rows = [];
for (const concurrency of LEVELS) {
  const samples = new Map(targets.map((target) => [target.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = targets.map((_, index) => targets[(index + round) % targets.length]);
    for (const target of order) samples.get(target.name).push(await measure(target, concurrency, CALLS));
  }
  for (const target of targets) rows.push({ concurrency, target, runs: samples.get(target.name) });
}

// Memory over a long run, one server at a time (both verdict eras share one process: the 2026 client soaks it).
const memory = [];
for (const target of [targets[0], targets[2], targets[3]]) {
  const before = rssBytes(target.child.pid);
  for (let done = 0; done < SOAK; done += 1000)
    await runCalls(target.client, { total: 1000, concurrency: 50 });
  memory.push({ name: target.name.replace(', 2026-07-28', ''), before, after: rssBytes(target.child.pid) });
}
for (const target of targets) await target.client.close();
await verdict.stop();
sdkFloor.stop();
echo.stop();

const figure = (row, key, digits) =>
  spread(
    row.runs.map((run) => run[key]),
    digits,
  );
const cpuOf = (concurrency, name) =>
  median(
    rows
      .find((row) => row.concurrency === concurrency && row.target.name === name)
      .runs.map((run) => run.cpu),
  );
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const lines = [
  machine.summary(),
  `${CALLS.toLocaleString('en')} calls of \`validate_result\` per target and round, ${ROUNDS} rounds interleaved, official client (\`@modelcontextprotocol/client\`, keep-alive); median (min–max) of the rounds.`,
  '',
  '| server | concurrency | calls/s | p50 ms | p99 ms | server CPU ms/call | client CPU ms/call |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.target.name} | ${row.concurrency} | ${figure(row, 'rate', 0)} | ${figure(row, 'p50', 1)} | ${figure(row, 'p99', 1)} | ${figure(row, 'cpu', 2)} | ${figure(row, 'clientCpu', 2)} |`,
  ),
  '',
  ...LEVELS.map(
    (concurrency) =>
      `Server CPU per call at concurrency ${concurrency}, verdict (2025-11-25) ÷ the SDK floor: ${(cpuOf(concurrency, targets[1].name) / cpuOf(concurrency, targets[2].name)).toFixed(2)}×.`,
  ),
  '',
  `| server | RSS before the soak | after ${SOAK.toLocaleString('en')} more calls |`,
  '|---|---:|---:|',
  ...memory.map((row) => `| ${row.name} | ${mib(row.before)} | ${mib(row.after)} |`),
  '',
  'Command: `npm run bench:mcp-http`.',
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
