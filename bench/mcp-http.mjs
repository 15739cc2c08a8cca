// `npm run bench:mcp-http`: throughput, latency and memory of `verdict mcp serve --http` under the official MCP
// client, on 127.0.0.1. For each protocol era: 1,000 calls at concurrency 50, then 1,000 at 200, then 1,000
// more at each; the server's RSS after each step and its CPU time per call. Prints a Markdown section.
// Options: `--quick`, `--old-space MB` (see below).
// Run it on an otherwise idle machine; `--quick` makes 200 calls per step, for a look (not for figures).
// The npm script silences MaxListenersExceededWarning: the client's transport hands one AbortSignal to every
// fetch, and undici drops its listener on that signal only when the request is garbage-collected.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { connectClient, quantile, rssBytes, runCalls, startVerdictHttp } from './mcp-http-load.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const perStep = quick ? 200 : 1000;
// `--old-space MB` runs the server with `--max-old-space-size=MB`: V8 then collects the old generation eagerly,
// and RSS shows what the server keeps rather than how lazily V8 collects.
const oldSpaceAt = process.argv.indexOf('--old-space');
const oldSpace = oldSpaceAt < 0 ? undefined : Number(process.argv[oldSpaceAt + 1]);
const nodeArgs = oldSpace === undefined ? [] : [`--max-old-space-size=${oldSpace}`];

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });

/** CPU time (user + system) a process has used, in milliseconds, from /proc (Linux). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

const mb = (bytes) => (bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const rows = [];
const memory = [];
const loadBefore = loadavg()[0];

for (const [era, pin] of [
  ['2026-07-28', true],
  ['2025-11-25', false],
]) {
  const server = await startVerdictHttp({ nodeArgs });
  const pid = server.child.pid;
  const client = await connectClient(server.url, { pin });
  const rss = [`start ${mb(rssBytes(pid))}`];
  let calls = 0;
  for (const concurrency of [50, 200, 50, 200]) {
    const cpuBefore = cpuMs(pid);
    const clientBefore = process.cpuUsage();
    const run = await runCalls(client, { total: perStep, concurrency });
    const cpu = cpuMs(pid) - cpuBefore;
    const clientUsage = process.cpuUsage(clientBefore);
    const clientCpu = (clientUsage.user + clientUsage.system) / 1000;
    calls += perStep;
    rss.push(`${calls}: ${mb(rssBytes(pid))}`);
    rows.push(
      `| ${era} | ${concurrency} | ${perStep} | ${run.errors.length} | ${(perStep / run.seconds).toFixed(0)} | ` +
        `${quantile(run.latencies, 0.5).toFixed(0)} | ${quantile(run.latencies, 0.99).toFixed(0)} | ${(cpu / perStep).toFixed(1)} | ${(clientCpu / perStep).toFixed(1)} |`,
    );
    if (run.errors.length > 0)
      console.error(`${era} c=${concurrency}: ${run.errors.slice(0, 3).join(' | ')}`);
  }
  memory.push(`- ${era}: ${rss.join(', ')}`);
  await client.close();
  await server.stop();
}

const report = `## verdict mcp serve --http under load

Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version},
load average ${loadBefore.toFixed(1)} before the run. One official client (\`@modelcontextprotocol/client\`,
keep-alive connections) calls \`validate_result\` on a small document; the server is the built CLI on
127.0.0.1 with a bearer token${oldSpace === undefined ? '' : ` and \`--max-old-space-size=${oldSpace}\``}. Steps run in the order
listed, each on the same server.

| era | concurrency | calls | errors | calls/s | p50 ms | p99 ms | server CPU ms/call | client CPU ms/call |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Server RSS after each step (calls so far):
${memory.join('\n')}

Command: \`npm run bench:mcp-http\`.
`;
console.log(report);
