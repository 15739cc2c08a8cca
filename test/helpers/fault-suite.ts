/**
 * The hostile-client and faulty-provider suite against a real `verdict gateway` process: every provider fault
 * of the fault-injection provider, slow headers, slow bodies, clients that leave while queued, repeated-key
 * bodies, and a shutdown with streams in flight. Every answer is checked to be an envelope whose status is its
 * code's; the gateway's resident memory (VmRSS, Linux) is sampled throughout. The hostile-client test asserts on
 * the report; `npm run bench:gateway-faults` prints it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statusForCode, type UnifiedOutput, validateUnifiedOutput } from '../../src/unified/index.js';
import { type FaultProvider, startFaultProvider } from './fault-provider.js';

/** What the suite saw. */
export interface FaultSuiteReport {
  /** Answers that were not a valid envelope with a coherent status, each with what was wrong. */
  problems: string[];
  /** Answers checked. */
  answers: number;
  /** Codes answered, with how often. */
  codes: Record<string, number>;
  /** Resident memory in MiB: after warm-up, the highest sample, and after the suite settled. */
  rssMiB: { baseline: number; peak: number; settled: number } | undefined;
  /** Whether the gateway was still serving at the end of the faults (before the shutdown). */
  alive: boolean;
  /** Exit status of the gateway after SIGTERM. */
  exitCode: number | null;
  /** Its log lines (JSON), parsed. */
  logLines: Record<string, unknown>[];
  /** Seconds the suite took. */
  seconds: number;
}

/** Options of {@link runFaultSuite}. */
export interface FaultSuiteOptions {
  /** The built CLI (`dist/cli/main.js`). */
  cliPath: string;
  /** Rounds of provider faults (each round sends every fault once per provider). */
  rounds?: number;
  /** Repeated-key bodies to send, by member count. */
  repeatedKeys?: readonly number[];
  /** Progress lines. */
  progress?: (line: string) => void;
  /** Node options of the gateway process, such as `--max-old-space-size=256` (its heap bound in MiB). */
  nodeOptions?: string;
}

function rssMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) / 1024);
  } catch {
    return undefined;
  }
}

/** Start `verdict gateway` with `config`; resolves with its URL once it serves. */
async function startGateway(
  cliPath: string,
  config: unknown,
  nodeOptions = '',
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-fault-suite-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, [cliPath, 'gateway', '--port', '0', '--config', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /serving on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`verdict gateway ended with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

/** Run the suite against a fresh gateway; never throws for a misbehaving gateway, it reports. */
export async function runFaultSuite(options: FaultSuiteOptions): Promise<FaultSuiteReport> {
  const started = performance.now();
  const progress = options.progress ?? (() => undefined);
  const faults: FaultProvider = await startFaultProvider();
  const problems: string[] = [];
  const codes: Record<string, number> = {};
  let answers = 0;
  const gateway = await startGateway(
    options.cliPath,
    {
      providers: faults.providers(),
      retries: 1,
      retryBaseMs: 10,
      concurrency: 8,
      queue: 16,
      headersTimeoutMs: 2000,
      bodyTimeoutMs: 1000,
      shutdownGraceMs: 1000,
      upstream: { firstByteTimeoutMs: 1000 },
    },
    options.nodeOptions,
  );
  const pid = gateway.child.pid;
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid) ?? 0);
  }, 50);

  const note = (what: string, envelope: UnifiedOutput | undefined, status: number, streamed = false) => {
    answers++;
    if (envelope === undefined) {
      problems.push(`${what}: not an envelope (status ${status})`);
      return;
    }
    const violations = validateUnifiedOutput(envelope).violations;
    if (violations.length > 0) problems.push(`${what}: invalid envelope ${JSON.stringify(violations)}`);
    const code = envelope.success ? 'ok' : envelope.error.code;
    codes[code] = (codes[code] ?? 0) + 1;
    const expected = envelope.success || streamed ? 200 : statusForCode(envelope.error.code);
    if (status !== expected) problems.push(`${what}: status ${status} for ${code}`);
  };

  /** Send one request and check its answer (a plain envelope, or a stream ending with one). */
  const send = async (what: string, path: string, init: RequestInit = {}) => {
    try {
      const response = await fetch(`${gateway.url}${path}`, init);
      const text = await response.text();
      if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const last = text.trim().split('\n\n').at(-1) ?? '';
        const data = /^event: envelope\ndata: (.*)$/s.exec(last)?.[1];
        note(
          what,
          data === undefined ? undefined : (JSON.parse(data) as UnifiedOutput),
          response.status,
          true,
        );
      } else {
        let envelope: UnifiedOutput | undefined;
        try {
          envelope = JSON.parse(text) as UnifiedOutput;
        } catch {}
        note(what, envelope, response.status);
      }
    } catch (error) {
      problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const text = (model: string, stream: boolean) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, input: 'Say hi', stream }),
  });

  await send('warm-up', '/v1/text', text('faulty:ok', false));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baseline = rssMiB(pid);

  const providerFaults = [
    'endless-line',
    'endless-body',
    'huge-body',
    'truncated-stream',
    'html-200',
    'redirect',
    'echo-key',
    'slow-first-byte',
    'reset-mid-stream',
    'many-events',
    'schema-200',
  ];
  for (let round = 0; round < (options.rounds ?? 1); round++) {
    progress(`provider faults, round ${round + 1}`);
    // Two at a time: each endless answer may fill up to its bound before it is cut.
    const jobs = providerFaults.flatMap((fault) =>
      ['faulty', 'faulty-anthropic'].flatMap((provider) =>
        [false, true].map(
          (stream) => () =>
            send(`${provider}:${fault} stream=${stream}`, '/v1/text', text(`${provider}:${fault}`, stream)),
        ),
      ),
    );
    for (let index = 0; index < jobs.length; index += 2) {
      await Promise.all(jobs.slice(index, index + 2).map((job) => job()));
    }
  }

  progress('slow headers');
  const { port } = new URL(gateway.url);
  await Promise.all(
    Array.from(
      { length: 50 },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () =>
            socket.write('POST /v1/text HTTP/1.1\r\nHost: x\r\n'),
          );
          let raw = '';
          socket.on('data', (chunk) => {
            raw += chunk.toString();
          });
          socket.on('error', () => undefined);
          socket.on('close', () => {
            const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
            let envelope: UnifiedOutput | undefined;
            try {
              envelope = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as UnifiedOutput;
            } catch {}
            note('slow headers', envelope, status);
            resolve();
          });
        }),
    ),
  );

  progress('slow bodies');
  await Promise.all(
    Array.from({ length: 10 }, () =>
      send('slow body', '/v1/text', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"model":"faulty:ok","input":"'));
          },
        }),
        duplex: 'half',
      } as RequestInit),
    ),
  );

  progress('aborts while queued');
  const leavers = Array.from({ length: 20 }, () => new AbortController());
  const leaving = leavers.map((controller) =>
    fetch(`${gateway.url}/v1/text`, {
      ...text('faulty:slow-first-byte', false),
      signal: controller.signal,
    }).catch(() => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const controller of leavers) controller.abort();
  await Promise.all(leaving);

  for (const members of options.repeatedKeys ?? [10_000, 100_000]) {
    progress(`repeated keys: ${members}`);
    const body = `{"model":"faulty:ok","input":"x",${'"k":1,'.repeat(members)}"end":1}`;
    await send(`repeated keys ${members}`, '/v1/text', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
  }

  // Settled: the gateway had a moment to collect what the faults left behind.
  await send('health', '/healthz');
  let settled = rssMiB(pid);
  for (let index = 0; index < 20 && baseline !== undefined && (settled ?? 0) > baseline + 64; index++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    settled = rssMiB(pid);
  }
  const alive = gateway.child.exitCode === null;

  progress('shutdown with streams in flight');
  const streams = Array.from({ length: 3 }, () =>
    send('stream at shutdown', '/v1/text', text('faulty:stall-mid-stream', true)),
  );
  while (faults.requests.filter((request) => request.model === 'stall-mid-stream').length < 3) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const exited = new Promise<number | null>((resolve) => {
    if (gateway.child.exitCode !== null) resolve(gateway.child.exitCode);
    else gateway.child.once('exit', (code) => resolve(code));
  });
  gateway.child.kill('SIGTERM');
  while (!gateway.stderr().includes('stopping') && gateway.child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await send('health while stopping', '/healthz');
  await Promise.all(streams);
  const exitCode = await exited;
  clearInterval(sampler);
  await faults.close();
  const logLines = gateway
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    problems,
    answers,
    codes,
    rssMiB:
      baseline === undefined || settled === undefined
        ? undefined
        : { baseline, peak: Math.max(peak, settled), settled },
    alive,
    exitCode,
    logLines,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
