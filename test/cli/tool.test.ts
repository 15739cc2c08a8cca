import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { REFERENCE_COMMANDS } from '../../src/commands/index.js';
import { validateResult } from '../../src/contract/validate-result.js';
import { type DnsResponder, findClosedUdpPort, startDnsResponder } from '../helpers/dns-responder.js';
import { runsAsRoot } from '../helpers/invoke-command.js';
import { memoryIo } from '../helpers/memory-io.js';
import { spawnCli } from '../helpers/spawn-cli.js';

let dir: string;
let dns: DnsResponder;
let closedPort: number;
// An unprivileged account for the spawned permission tests: as root, file modes do not stop reads.
const NOBODY = 65_534;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-tool-'));
  await chmod(dir, 0o755);
  await mkdir(join(dir, 'tree/sub'), { recursive: true });
  await writeFile(join(dir, 'tree/a.txt'), 'alpha\n');
  await writeFile(join(dir, 'tree/sub/b.txt'), 'beta\n');
  await writeFile(join(dir, 'abc.txt'), 'abc');
  await writeFile(join(dir, 'big.txt'), 'x'.repeat(100));
  await writeFile(join(dir, 'secret.txt'), 'secret');
  // Mode 0: unreadable for an unprivileged owner as well as for nobody when the owner is root.
  await chmod(join(dir, 'secret.txt'), 0o000);
  await mkdir(join(dir, 'closed/inner'), { recursive: true });
  await chmod(join(dir, 'closed'), 0o000);
  dns = await startDnsResponder({
    'example.test': [{ type: 'A', address: '192.0.2.7' }],
    'alias.test': [{ type: 'CNAME', target: 'example.test' }],
    'broken.test': { rcode: 'SERVFAIL' },
    'silent.test': { silent: true },
  });
  closedPort = await findClosedUdpPort();
});

afterAll(async () => {
  await dns.close();
  await chmod(join(dir, 'closed'), 0o755);
  await rm(dir, { recursive: true, force: true });
});

async function tool(argv: string[]) {
  const io = memoryIo({ cwd: dir, env: { ...process.env }, stdinIsTTY: true });
  const status = await run(['tool', ...argv, '--json'], io);
  const doc = JSON.parse(io.stdout.text());
  return { status, doc };
}

/** Every case: arguments, expected exit status and expected error_code (undefined for a success). */
const CASES: [string, string[], number, string | undefined][] = [
  ['getCurrentDateTime', ['--timezone', 'Europe/Madrid'], 0, undefined],
  ['getCurrentDateTime', ['--timezone', 'Nowhere/City'], 1, 'unknown_timezone'],
  ['getCurrentDateTime', ['--output-format', 'julian'], 2, 'invalid_arguments'],
  ['findFiles', ['--root', 'tree', '--pattern', '*.txt'], 0, undefined],
  ['findFiles', ['--root', 'missing'], 1, 'path_not_found'],
  ['findFiles', ['--root', 'abc.txt'], 1, 'not_a_directory'],
  ['findFiles', ['--max-depth', '-1'], 2, 'invalid_arguments'],
  ['readFile', ['--path', 'abc.txt'], 0, undefined],
  ['readFile', ['--path', 'missing.txt'], 1, 'path_not_found'],
  ['readFile', ['--path', 'tree'], 1, 'is_a_directory'],
  ['readFile', ['--path', 'big.txt', '--max-bytes', '10'], 1, 'file_too_large'],
  ['readFile', ['--path', '/proc/self/mem'], 1, 'io_error'],
  ['readFile', ['--path', 'abc.txt', '--max-bytes', '268435457'], 2, 'invalid_arguments'],
  ['readFile', [], 2, 'invalid_arguments'],
  ['calculateFileHash', ['--path', 'abc.txt', '--algorithm', 'md5'], 0, undefined],
  ['calculateFileHash', ['--path', 'missing.txt'], 1, 'path_not_found'],
  ['calculateFileHash', ['--path', 'tree'], 1, 'is_a_directory'],
  ['calculateFileHash', ['--path', 'abc.txt', '--algorithm', 'crc32'], 2, 'invalid_arguments'],
  ['getDiskSpace', ['--path', '.'], 0, undefined],
  ['getDiskSpace', ['--path', 'missing'], 1, 'path_not_found'],
  ['getDiskSpace', ['--bogus'], 2, 'invalid_arguments'],
  ['listProcesses', ['--name', 'node', '--limit', '5'], 0, undefined],
  ['listProcesses', ['--limit', '0'], 2, 'invalid_arguments'],
  [
    'checkDns',
    ['--name', 'nowhere.test', '--server', '127.0.0.1:1', '--type', 'SOA'],
    2,
    'invalid_arguments',
  ],
  ['checkDns', ['--type', 'A'], 2, 'invalid_arguments'],
];

describe('verdict tool', () => {
  test('--list names every reference command with its options and error codes', async () => {
    const { status, doc } = await tool(['--list']);
    expect(status).toBe(0);
    expect(doc.tools.map((t: { name: string }) => t.name)).toEqual(REFERENCE_COMMANDS.map((c) => c.name));
    expect(doc.tools[1]).toMatchObject({
      name: 'findFiles',
      error_codes: expect.arrayContaining(['not_a_directory']),
    });
  });

  test('reports an unknown tool as a usage error', async () => {
    const { status, doc } = await tool(['fetchWeather']);
    expect(status).toBe(2);
    expect(doc).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  });

  test.each(CASES)('%s %j exits %i with %s', async (name, argv, status, code) => {
    const result = await tool([name, ...argv]);
    expect(result.status).toBe(status);
    expect(validateResult(result.doc).valid).toBe(true);
    expect(result.doc.meta).toMatchObject({ command: name, schema_version: 1 });
    if (code === undefined) expect(result.doc).toMatchObject({ success: true });
    else expect(result.doc).toMatchObject({ success: false, error_code: code });
  });

  test.each([
    [['--name', 'example.test'], 0, undefined],
    [['--name', 'missing.test'], 1, 'dns_name_not_found'],
    [['--name', 'alias.test', '--type', 'MX'], 1, 'dns_no_records'],
    [['--name', 'broken.test'], 1, 'dns_server_failure'],
    [['--name', 'silent.test', '--timeout', '0.2'], 1, 'dns_timeout'],
  ])('checkDns %j exits %i with %s', async (argv, status, code) => {
    const result = await tool(['checkDns', ...argv, '--server', dns.server]);
    expect(result.status).toBe(status);
    expect(validateResult(result.doc).valid).toBe(true);
    if (code !== undefined) expect(result.doc.error_code).toBe(code);
  });

  test('checkDns reports dns_server_unreachable', async () => {
    const result = await tool(['checkDns', '--name', 'example.test', '--server', `127.0.0.1:${closedPort}`]);
    expect(result.doc.error_code).toBe('dns_server_unreachable');
  });
});

describe('verdict tool (spawned)', () => {
  const spawnJson = async (argv: string[], options: Parameters<typeof spawnCli>[1] = {}) => {
    const spawned = await spawnCli(['tool', ...argv, '--json'], { cwd: dir, ...options });
    const doc = JSON.parse(spawned.stdout);
    expect(validateResult(doc).valid).toBe(true);
    // The same bytes through `verdict validate -`, as a consumer would check them.
    const check = memoryIo({ stdin: spawned.stdout });
    expect(await run(['validate', '-', '--json'], check)).toBe(0);
    return { ...spawned, doc };
  };

  test.each([
    ['getCurrentDateTime', ['--output-format', 'rfc2822', '--timezone', 'Asia/Tokyo'], /\+0900$/],
    ['findFiles', ['--root', 'tree', '--pattern', '**/*.txt'], undefined],
    ['readFile', ['--path', 'tree/a.txt'], undefined],
    ['calculateFileHash', ['--path', 'abc.txt'], undefined],
    ['getDiskSpace', ['--path', '.'], undefined],
    ['listProcesses', ['--name', 'node'], undefined],
  ])('%s succeeds as a real process with one JSON document on stdout', async (name, argv, output) => {
    const { status, doc, stderr } = await spawnJson([name, ...argv]);
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(doc).toMatchObject({ success: true, meta: { command: name } });
    if (output) expect(doc.output).toMatch(output);
  });

  test('checkDns resolves against a DNS server on 127.0.0.1', async () => {
    const { status, doc } = await spawnJson(['checkDns', '--name', 'example.test', '--server', dns.server]);
    expect(status).toBe(0);
    expect(doc.records).toEqual([{ type: 'A', value: '192.0.2.7', ttl: 300 }]);
  });

  test('checkDns reports dns_timeout as a real process', async () => {
    const args = ['checkDns', '--name', 'silent.test', '--server', dns.server, '--timeout', '0.2'];
    const { status, doc } = await spawnJson(args);
    expect(status).toBe(1);
    expect(doc.error_code).toBe('dns_timeout');
  });

  // Real permission errors need an unprivileged user: as root the test drops to nobody for the child.
  const asUser = runsAsRoot ? { uid: NOBODY } : {};
  test.each([
    ['readFile', ['--path', 'secret.txt']],
    ['calculateFileHash', ['--path', 'secret.txt']],
    ['findFiles', ['--root', 'closed']],
    ['getDiskSpace', ['--path', 'closed/inner']],
  ])('%s reports permission_denied for an unprivileged user', async (name, argv) => {
    const { status, doc } = await spawnJson([name, ...argv], asUser);
    expect(status).toBe(1);
    expect(doc).toMatchObject({ success: false, error_code: 'permission_denied' });
  });

  test('findFiles warns about an unreadable folder for an unprivileged user', async () => {
    const { status, doc } = await spawnJson(['findFiles', '--root', '.', '--pattern', '*.txt'], asUser);
    expect(status).toBe(0);
    expect(doc.unreadable_directories).toEqual(['closed']);
    expect(doc.warnings).toEqual([expect.stringContaining('EACCES')]);
  });

  test('a usage error exits 2 with an invalid_arguments document', async () => {
    const { status, doc } = await spawnJson(['readFile']);
    expect(status).toBe(2);
    expect(doc.error_code).toBe('invalid_arguments');
  });
});
