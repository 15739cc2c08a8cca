// Load driver for `verdict mcp serve --http`, shared by `npm run bench:mcp-http` (bench/mcp-http.mjs) and the
// load test (test/mcp/http-load.test.ts): starts the built CLI on 127.0.0.1 with a bearer token, calls one
// tool many times through the official MCP client at a fixed concurrency, and reads the server's RSS.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** The built CLI entry the driver starts. */
export const CLI = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'cli', 'main.js');

/** A fixed token for measuring; a real deployment keeps its own secret. */
export const BENCH_TOKEN = 'verdict-bench-token-0123456789abcdef';

/**
 * Starts `verdict mcp serve --http 127.0.0.1:0` with {@link BENCH_TOKEN} and resolves once it listens.
 * `nodeArgs` go to node (a heap cap, say); `stderr` collects what the server logs.
 */
export async function startVerdictHttp({ nodeArgs = [], args = [], env = {} } = {}) {
  const child = spawn(
    process.execPath,
    [...nodeArgs, CLI, 'mcp', 'serve', '--http', '127.0.0.1:0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, VERDICT_MCP_TOKEN: BENCH_TOKEN, ...env },
    },
  );
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving MCP on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(new URL(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`verdict mcp serve exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    stdout: () => stdout,
    /** Stops the server with SIGINT and resolves with its exit code. */
    stop() {
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** The resident set size of a process in bytes, from /proc (Linux); undefined elsewhere. */
export function rssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A connected official client; `pin` selects MCP 2026-07-28, else the client negotiates 2025-11-25. */
export async function connectClient(url, { pin = true, token = BENCH_TOKEN } = {}) {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client(
    { name: 'verdict-load', version: '1.0.0' },
    pin ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return client;
}

/** The call the driver repeats: a small document through validate_result, which answers without I/O. */
export const SAMPLE_CALL = {
  name: 'validate_result',
  arguments: { document: { success: false, message: 'No.', error_code: 'nope' } },
};

/**
 * Makes `total` calls with `concurrency` in flight at once through one client. Resolves with the wall time,
 * each call's latency (ms) and every error (a call that throws or answers without a contract result).
 */
export async function runCalls(client, { total, concurrency, call = SAMPLE_CALL }) {
  const latencies = [];
  const errors = [];
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      next += 1;
      const begun = performance.now();
      try {
        const result = await client.callTool(call);
        if (typeof result.structuredContent?.success !== 'boolean') {
          errors.push(`no contract result: ${JSON.stringify(result).slice(0, 200)}`);
        }
      } catch (error) {
        errors.push(`${error?.code ?? ''} ${error?.message ?? error}`.trim());
      }
      latencies.push(performance.now() - begun);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { seconds: (performance.now() - started) / 1000, latencies, errors };
}

/** The `q` quantile (0–1) of a list of numbers. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
