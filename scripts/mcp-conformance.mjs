// `npm run mcp:conformance`: runs the official MCP conformance suite (@modelcontextprotocol/conformance)
// against `verdict mcp serve --http 127.0.0.1:0 --allow-unauthenticated`, for the scenarios that apply to a server that serves tools.
// The suite needs Node >= 22; its Node comes from the npm registry (the `node` package), like the suite itself.
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NODE = 'node@22';
const BASELINE = resolve('scripts/mcp-conformance-baseline.yml');

/** Scenario and the revision whose wire it runs on. */
const RUNS = [
  ['server-initialize', '2025-06-18'],
  ['server-initialize', '2025-11-25'],
  ['tools-list', '2025-06-18'],
  ['tools-list', '2025-11-25'],
  ['tools-list', '2026-07-28'],
  ['server-session-lifecycle', '2025-11-25'],
  ['dns-rebinding-protection', '2025-11-25'],
  ['dns-rebinding-protection', '2026-07-28'],
  ['server-stateless', '2026-07-28'],
  ['http-header-validation', '2026-07-28'],
  ['caching', '2026-07-28'],
];

function startServer() {
  const child = spawn(
    process.execPath,
    // The suite sends no bearer token, so the loopback server it tests runs without one.
    [resolve('dist/cli/main.js'), 'mcp', 'serve', '--http', '127.0.0.1:0', '--allow-unauthenticated'],
    {
      stdio: ['ignore', 'inherit', 'pipe'],
    },
  );
  return new Promise((done, fail) => {
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk.toString();
      const match = /serving MCP on (http:\/\/\S+)/.exec(seen);
      if (match) done({ child, url: match[1] });
    });
    child.once('exit', (code) => fail(new Error(`verdict mcp serve exited with ${code}: ${seen}`)));
  });
}

const { child, url } = await startServer();
const outcomes = [];
try {
  for (const [scenario, revision] of RUNS) {
    const command = `conformance server --url ${url} --scenario ${scenario} --spec-version ${revision} --expected-failures ${BASELINE}`;
    const run = spawnSync('npx', ['--yes', '-p', NODE, '-p', SUITE, '-c', command], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const summary = /Passed: \d+\/\d+, \d+ failed, \d+ warnings/.exec(run.stdout)?.[0] ?? 'no summary';
    outcomes.push({ scenario, revision, status: run.status, summary });
    process.stdout.write(`${run.status === 0 ? 'PASS' : 'FAIL'}  ${scenario} @ ${revision}  (${summary})\n`);
    if (run.status !== 0) process.stdout.write(run.stdout.replace(/^/gm, '    '));
  }
} finally {
  child.kill('SIGINT');
}
const failed = outcomes.filter((o) => o.status !== 0);
process.stdout.write(
  `\n${outcomes.length - failed.length} of ${outcomes.length} scenario runs passed (${SUITE}).\n`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
