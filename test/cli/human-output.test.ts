import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { createListProcesses } from '../../src/commands/list-processes.js';
import { MCP_REVISIONS } from '../../src/mcp/codes.js';
import { runCommand } from '../../src/producer/run-command.js';
import { UNIFIED_ERROR_CODES } from '../../src/unified/index.js';
import { type DnsResponder, startDnsResponder } from '../helpers/dns-responder.js';
import { type MemoryIoOptions, memoryIo } from '../helpers/memory-io.js';

// The rendering for people, command by command, as a person sees it with NO_COLOR set: what these tests
// pin down is exactly what the --json document never shows (places, tables, one summary).
let dir: string;
let dns: DnsResponder;

const NOT_CONFORMING =
  '{\n  "success": true,\n  "message": "  ",\n  "error_code": "ignored",\n  "details": null\n}\n';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-human-'));
  await writeFile(join(dir, 'bad.json'), NOT_CONFORMING);
  await writeFile(join(dir, 'good.json'), '{"success": true, "message": "Done."}\n');
  await writeFile(join(dir, 'broken.json'), '{\n  "success": true,\n  "message": "x",\n}\n');
  const lines = ['{"success":true,"message":"ok"}'];
  for (let i = 0; i < 12; i++) lines.push('{"success":false,"message":"no"}');
  lines.push('', 'not json');
  await writeFile(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
  await writeFile(
    join(dir, 'tool-result.json'),
    '{\n  "content": [],\n  "structuredContent": {"success": true, "message": 1}\n}\n',
  );
  await writeFile(join(dir, 'tool.json'), '{\n  "name": "t",\n  "outputSchema": {"type": "string"}\n}\n');
  await writeFile(
    join(dir, 'manifest.json'),
    JSON.stringify({
      schema_version: 1,
      contract: 'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json',
      cases: [
        { id: 'as_expected', file: 'bad.json', expected_conformant: false },
        { id: 'wrong', file: 'good.json', expected_conformant: false },
      ],
    }),
  );
  await writeFile(join(dir, 'failure.json'), '{"success": false, "message": "No.", "error_code": "nope"}');
  await writeFile(
    join(dir, 'chat.json'),
    JSON.stringify({
      id: 'c',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
    }),
  );
  await mkdir(join(dir, 'tree/sub'), { recursive: true });
  await writeFile(join(dir, 'tree/a.txt'), 'alpha\n');
  await writeFile(join(dir, 'tree/sub/b.txt'), 'beta beta\n');
  await mkdir(join(dir, 'proc/7'), { recursive: true });
  const tail = '0 0 0 0 0 0 0 0 0 0 0 20 0 1 0 100 0 0';
  await writeFile(join(dir, 'proc/7/stat'), `7 (worker) S 1 7 7 0 -1 0 0 0 0 0 150 50 ${tail}\n`);
  await writeFile(join(dir, 'proc/7/cmdline'), `node\0${'x'.repeat(300)}\0`);
  await writeFile(join(dir, 'proc/7/status'), 'Name:\tworker\nVmRSS:\t    2048 kB\n');
  dns = await startDnsResponder({ 'example.test': [{ type: 'A', address: '192.0.2.7' }] });
});

afterAll(async () => {
  await dns.close();
  await rm(dir, { recursive: true, force: true });
});

async function verdict(argv: string[], options: MemoryIoOptions = {}) {
  const io = memoryIo({ cwd: dir, stdinIsTTY: true, ...options, env: { NO_COLOR: '1', ...options.env } });
  const status = await run(argv, io);
  return { status, out: io.stdout.text(), err: io.stderr.text() };
}

/** How often `part` occurs in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1;

describe('verdict validate for people', () => {
  test('prints each violation as FILE:LINE:COL code message, then the summary once', async () => {
    const { status, out } = await verdict(['validate', 'bad.json']);
    expect(status).toBe(1);
    expect(out).toBe(
      [
        'bad.json:3:3 message_invalid message must be a string with a non-whitespace character, got a string of only whitespace.',
        'bad.json:4:3 success_with_error A success must not carry error_code (here a string).',
        'bad.json:5:3 details_not_object details must be an object, got null.',
        '✖ bad.json does not conform to QZX Result Contract v1 (3 violations). [contract_violation]',
        '',
      ].join('\n'),
    );
    expect(out).not.toContain('\u001b[');
  });

  test('colours the codes and the mark on a terminal, and not when NO_COLOR is set', async () => {
    const io = memoryIo({ cwd: dir, stdoutIsTTY: true, env: {} });
    await run(['validate', 'bad.json'], io);
    expect(io.stdout.text()).toContain('bad.json:3:3 \u001b[31mmessage_invalid\u001b[39m');
    const plain = await verdict(['validate', 'bad.json'], { stdoutIsTTY: true });
    expect(plain.out).not.toContain('\u001b[');
  });

  test('places standard input as <stdin> and an unreadable file at its syntax error', async () => {
    const { out } = await verdict(['validate', 'good.json', 'broken.json', '-'], {
      stdin: NOT_CONFORMING,
      stdinIsTTY: false,
    });
    expect(out).toContain("broken.json:4:1 syntax Unexpected character '}'");
    expect(out).toContain('<stdin>:5:3 details_not_object');
    expect(out).not.toContain('good.json');
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      '✖ 2 of 3 inputs do not conform: 1 could not be read as strict JSON. [invalid_json_input]',
    );
  });

  test('says a success in one line', async () => {
    expect((await verdict(['validate', 'good.json'])).out).toBe(
      '✔ good.json conforms to QZX Result Contract v1.\n',
    );
  });

  test('lists the first failing JSON lines as FILE:LINE code, then how many more, then the totals', async () => {
    const { status, out } = await verdict(['validate', '--jsonl', 'results.jsonl']);
    expect(status).toBe(1);
    const lines = out.trimEnd().split('\n');
    expect(lines.slice(0, 10)).toEqual(
      Array.from({ length: 10 }, (_, k) => `results.jsonl:${k + 2} failure_without_error`),
    );
    expect(lines.slice(10)).toEqual([
      '… and 3 more failing lines',
      '14 documents: 1 conformant, 12 not conformant, 1 unreadable; 1 blank lines skipped.',
      'violations: failure_without_error ×12',
      'read errors: syntax ×1',
      '✖ 13 of 14 documents in results.jsonl do not conform to QZX Result Contract v1. [invalid_json_input]',
    ]);
  });

  test('places an unreadable JSON line at its line in the stream and its column', async () => {
    const { out } = await verdict(['validate', '--jsonl'], {
      stdin: '{"success":true,"message":"ok"}\n  not json\n',
      stdinIsTTY: false,
    });
    expect(out.split('\n')[0]).toBe("<stdin>:2:4 syntax Unexpected character 'o'; expected 'null'.");
  });
});

describe('verdict mcp for people', () => {
  test('places violations in the tool result and in the tool definition', async () => {
    const { status, out } = await verdict([
      'mcp',
      'tool-result.json',
      '--tool-definition',
      'tool.json',
      '--spec-version',
      '2025-11-25',
    ]);
    expect(status).toBe(1);
    expect(out).toContain('tool-result.json:3:42 message_invalid message must be a string');
    expect(out).toContain(
      'tool.json:3:20 output_schema_not_contract The structural core needs "type": "object"',
    );
    expect(count(out, '✖ The MCP tool result does not conform')).toBe(1);
    expect(out).toContain('  mcp_specification: 2025-11-25');
    expect(out).toContain('  ! backcompat_text_missing at /content:');
  });
});

describe('verdict evidence and conformance for people', () => {
  test('evidence marks each case with its file and digest, its violations under it, the verdict once', async () => {
    const { status, out } = await verdict(['evidence', '--success', 'good.json', '--failure', 'bad.json']);
    expect(status).toBe(1);
    expect(out).toMatch(/^✔ success: good\.json {2}sha256 [0-9a-f]{12}…\n✖ failure: bad\.json {2}sha256 /);
    expect(out).toContain('    ✖ role_mismatch at /success: The failure evidence must say success: false');
    expect(count(out, 'Not conformant under the core profile')).toBe(1);
    expect(out.trimEnd().split('\n').at(-1)).toBe('  profile: core');
  });

  test('conformance says for each case whether it got its expected verdict, and what it got', async () => {
    const { status, out } = await verdict(['conformance', '--manifest', 'manifest.json']);
    expect(status).toBe(1);
    expect(out).toContain(
      '✔ bad.json  not conformant as expected (details_not_object, message_invalid, success_with_error)',
    );
    expect(out).toContain('✖ good.json  expected not conformant, got conformant');
    expect(out).toContain('  total: 2\n  passed: 1\n  failed: 1');
  });
});

describe('verdict normalize, schema and run for people', () => {
  test('normalize prints the envelope itself, the same document as with --json', async () => {
    const human = await verdict(['normalize', '--format', 'openai.chat', '--trace-id', 't1', 'chat.json']);
    const json = await verdict([
      'normalize',
      '--format',
      'openai.chat',
      '--trace-id',
      't1',
      'chat.json',
      '--json',
    ]);
    expect(human.status).toBe(0);
    expect(JSON.parse(human.out)).toMatchObject({ success: true, content: 'Hi.' });
    expect(human.out).toBe(json.out);
  });

  test('schema prints the schema document', async () => {
    const { out } = await verdict(['schema', 'receipt']);
    expect(JSON.parse(out).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  test('run sums up how the command ended without repeating the output it streamed to stderr', async () => {
    const script = "process.stdout.write('out\\n'); process.exit(3)";
    const { status, out, err } = await verdict(['run', '--', process.execPath, '-e', script]);
    expect(status).toBe(1);
    expect(err).toBe('out\n');
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/ failed with exit status 3\. \[command_failed\]$/);
    expect(lines[1]).toMatch(/^ {2}exit status 3 · \d+ ms · pid \d+ · in /);
    expect(lines[2]).toBe('  stdout 4 bytes, stderr 0 bytes, shown on stderr as it came');
    expect(lines).toHaveLength(3);
  });
});

describe('verdict tool for people', () => {
  test('--list is a table of names and descriptions', async () => {
    const { out } = await verdict(['tool', '--list']);
    const lines = out.split('\n');
    expect(lines[1]).toBe('  tools (7):');
    expect(lines[2]).toBe('    name                description');
    expect(lines[3]).toMatch(/^ {4}getCurrentDateTime {2}Returns the current date and time/);
    expect(lines[9]).toMatch(/^ {4}checkDns {12}Resolves a DNS name/);
  });

  test('findFiles lists its matches as an aligned table, numbers to the right', async () => {
    const { out } = await verdict(['tool', 'findFiles', '--root', 'tree', '--pattern', '*.txt']);
    const table = out.split('\n').filter((line) => line.startsWith('    '));
    expect(table[0]).toMatch(/^ {4}path {7}type {2}size_bytes {2}modified$/);
    expect(table[1]).toMatch(/^ {4}a\.txt {6}file {11}6 {2}\d{4}-/);
    expect(table[2]).toMatch(/^ {4}sub\/b\.txt {2}file {10}10 {2}\d{4}-/);
  });

  test('listProcesses is a table cut to the width, the command line last', async () => {
    const io = memoryIo({ env: { NO_COLOR: '1', COLUMNS: '80' } });
    const source = { platform: 'linux' as const, procRoot: join(dir, 'proc') };
    expect(await runCommand(createListProcesses(source), [], io)).toBe(0);
    const lines = io.stdout.text().split('\n');
    expect(lines[2]).toBe('    pid  ppid  state  rss_bytes  cpu_time_ms  name    command_line');
    expect(lines[3]).toMatch(/^ {6}7 {5}1 {2}S {8}2097152 {9}2000 {2}worker {2}node x+…$/);
    expect(lines[3]).toHaveLength(80);
  });

  test('a terminal’s width is used when stdout is one', async () => {
    const io = memoryIo({ env: { NO_COLOR: '1' }, stdoutIsTTY: true });
    Object.assign(io.stdout, { columns: 70 });
    const source = { platform: 'linux' as const, procRoot: join(dir, 'proc') };
    await runCommand(createListProcesses(source), [], io);
    expect(
      Math.max(
        ...io.stdout
          .text()
          .split('\n')
          .map((line) => line.length),
      ),
    ).toBe(70);
  });

  test('scalar evidence is one member per line; multi-line text is shown as a block', async () => {
    const hash = await verdict(['tool', 'calculateFileHash', '--path', 'tree/a.txt']);
    expect(hash.out).toContain('\n  algorithm: sha256\n  hash: ');
    const read = await verdict(['tool', 'readFile', '--path', 'tree/a.txt']);
    expect(read.out).toContain('\n  content:\n    alpha\n');
    const time = await verdict([
      'tool',
      'getCurrentDateTime',
      '--timezone',
      'UTC',
      '--output-format',
      'unix',
    ]);
    expect(time.out).toMatch(/^✔ .*\n {2}output: \d+\n {2}output_format: unix\n {2}timezone: UTC\n/);
    const disk = await verdict(['tool', 'getDiskSpace', '--path', '.']);
    expect(disk.out).toMatch(/\n {2}total_bytes: \d+\n/);
  });

  test('checkDns shows its records as a table', async () => {
    const { status, out } = await verdict([
      'tool',
      'checkDns',
      '--name',
      'example.test',
      '--server',
      dns.server,
    ]);
    expect(status).toBe(0);
    expect(out).toMatch(/\n {2}records \(1\):\n {4}type {2}ttl {2}value\n {4}A {5}300 {2}192\.0\.2\.7\n/);
  });

  test('a failure says its error once, with its code on the first line', async () => {
    const { status, out } = await verdict(['tool', 'findFiles', '--root', 'missing']);
    expect(status).toBe(1);
    expect(out.split('\n')[0]).toMatch(/^✖ .* \[path_not_found\]$/);
  });
});

describe('usage errors and global options', () => {
  test('a usage error goes to stderr for people, with where the help is; stdout stays empty', async () => {
    const { status, out, err } = await verdict(['validate', '--nope']);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(
      'verdict validate: Invalid arguments for validate: Unknown option --nope.\nRun verdict validate --help for the options.\n',
    );
  });

  test('a usage error the command finds itself goes to stderr too', async () => {
    const { status, out, err } = await verdict(['schema', 'nope']);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('verdict schema: There is no schema named "nope".');
  });

  test('with --json the usage error is the contract document on stdout', async () => {
    const { status, out, err } = await verdict(['validate', '--nope', '--json']);
    expect(status).toBe(2);
    expect(err).toBe('');
    expect(JSON.parse(out)).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  });

  test('an unknown command or tool is a usage error on stderr', async () => {
    expect((await verdict(['frobnicate'])).err).toMatch(/^verdict: Unknown command "frobnicate"\./);
    const tool = await verdict(['tool', 'nope']);
    expect(tool.status).toBe(2);
    expect(tool.err).toMatch(/^verdict tool: Unknown tool "nope"\..*\n {2}Known tools: getCurrentDateTime, /);
  });

  test('mcp serve reports its usage errors the same way', async () => {
    const human = await verdict(['mcp', 'serve', '--http', 'nowhere']);
    expect(human.status).toBe(2);
    expect(human.out).toBe('');
    expect(human.err).toMatch(
      /^verdict mcp serve: Invalid arguments for mcp serve: --http must be HOST:PORT/,
    );
    const json = await verdict(['--json', 'mcp', 'serve', '--http', 'nowhere']);
    expect(JSON.parse(json.out)).toMatchObject({
      error_code: 'invalid_arguments',
      meta: { command: 'mcp serve' },
    });
  });

  test('--json is understood before the command and between a group and its subcommand', async () => {
    for (const argv of [
      ['--json', 'validate', 'good.json'],
      ['tool', '--json', 'readFile', '--path', 'tree/a.txt'],
      ['--json', 'tool', 'readFile', '--path', 'tree/a.txt'],
    ]) {
      const { status, out } = await verdict(argv);
      expect(status).toBe(0);
      expect(JSON.parse(out).success).toBe(true);
    }
  });

  test('--json after -- belongs to the command verdict run starts', async () => {
    const { out } = await verdict(['--json', 'run', '--', process.execPath, '-e', '1', '--json']);
    expect(JSON.parse(out).args).toEqual(['-e', '1', '--json']);
  });

  test('--version prints the version; with --json a result document; with another word a usage error', async () => {
    expect((await verdict(['--version'])).out).toMatch(/^\d+\.\d+\.\d+\n$/);
    const json = await verdict(['--version', '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ success: true, meta: { command: 'verdict' } });
    expect(JSON.parse((await verdict(['--json', '-v'])).out).version).toMatch(/^\d+\.\d+\.\d+$/);
    const extra = await verdict(['--version', 'extra']);
    expect(extra.status).toBe(2);
    expect(extra.out).toBe('');
    expect(extra.err).toContain('--version takes no arguments; got "extra".');
  });

  test('no command at all prints the help on stderr and exits 2; verdict help NAME is NAME --help', async () => {
    const bare = await verdict([]);
    expect(bare.status).toBe(2);
    expect(bare.out).toBe('');
    expect(bare.err).toContain('Usage: verdict <command> [options]');
    const help = await verdict(['help', 'run']);
    expect(help.status).toBe(0);
    expect(help.out).toContain('Usage: verdict run [options] [--] COMMAND [ARGS…]');
  });
});

describe('help texts', () => {
  test('the top-level help lists --json, usable anywhere', async () => {
    const { out } = await verdict(['--help']);
    expect(out).toMatch(/\n {2}--json {9}Anywhere on the command line, before or after the command/);
  });

  test('run --help shows --, invalid_arguments and the exit statuses of an interrupted run', async () => {
    const { out } = await verdict(['run', '--help']);
    expect(out).toContain('  --  ');
    expect(out).toMatch(/\n {2}invalid_arguments {4}The command line is wrong \(exit 2\)\./);
    expect(out).toContain('interrupted: 129 SIGHUP, 130 SIGINT, 143 SIGTERM.');
  });

  test('choice lists come from the tables the parser uses', async () => {
    const mcp = (await verdict(['mcp', '--help'])).out;
    expect(mcp).toContain(`(one of: ${MCP_REVISIONS.join(', ')}; default: 2026-07-28)`);
    const time = (await verdict(['tool', 'getCurrentDateTime', '--help'])).out;
    expect(time).toContain('(one of: iso, rfc3339, rfc2822, unix; default: iso)');
  });

  test('normalize --help lists the envelope codes as the envelope writes them', async () => {
    const { out } = await verdict(['normalize', '--help']);
    for (const code of Object.keys(UNIFIED_ERROR_CODES)) expect(out).toMatch(new RegExp(`\\n {2}${code} `));
    expect(out).not.toMatch(/\n {2}rate_limited /);
    expect(out).toContain('stdout holds the envelope itself, not a contract result');
  });

  test('checkDns --server asks for an IP address, which is what it takes', async () => {
    const { out } = await verdict(['tool', 'checkDns', '--help']);
    expect(out).toContain('--server <IP[:PORT]>');
    const host = await verdict(['tool', 'checkDns', '--name', 'a.test', '--server', 'localhost:53']);
    expect(host.status).toBe(2);
  });
});

describe('tables', () => {
  test('count East Asian wide characters as two columns when aligning and cutting', async () => {
    const { renderTable } = await import('../../src/producer/render.js');
    const lines = renderTable(
      [
        ['報告書.txt', 'file', 'a long description that is cut'],
        ['a.txt', 'file', 'short'],
      ],
      { width: 30, indent: '' },
    );
    expect(lines).toEqual(['報告書.txt  file  a long desc…', 'a.txt       file  short']);
  });
});
