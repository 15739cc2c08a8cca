import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';

let dir: string;
const SUCCESS = JSON.stringify({ success: true, message: 'Done.' });
const FAILURE = JSON.stringify({ success: false, message: 'No.', error: 'x', error_code: 'nope' });
const MCP_RESULT = JSON.stringify({
  content: [{ type: 'text', text: SUCCESS }],
  structuredContent: JSON.parse(SUCCESS),
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-consistency-'));
  await writeFile(join(dir, 'success.json'), SUCCESS);
  await writeFile(join(dir, 'failure.json'), FAILURE);
  await writeFile(join(dir, 'mcp-result.json'), MCP_RESULT);
  await writeFile(join(dir, 'not-a-tool.json'), JSON.stringify({ name: 'no outputSchema here' }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function verdict(argv: string[], stdin?: string) {
  const io = memoryIo({ cwd: dir, env: {}, ...(stdin === undefined ? { stdinIsTTY: true } : { stdin }) });
  const status = await run(argv, io);
  return { status, out: io.stdout.text(), err: io.stderr.text() };
}

describe('every command says the same thing the same way', () => {
  test.each([
    [['validate', 'absent.json']],
    [['mcp', 'absent.json']],
    [['normalize', '--format', 'openai.chat', 'absent.json']],
  ])('a missing input file is invalid_json_input, exit 1: %j', async (argv) => {
    const { status, out } = await verdict([...argv, '--json']);
    expect(status).toBe(1);
    const doc = JSON.parse(out);
    expect(doc).toMatchObject({ success: false, error_code: 'invalid_json_input' });
    expect(JSON.stringify(doc)).toContain('not_found');
  });

  test('- is standard input for evidence --success too', async () => {
    const { status, out } = await verdict(
      ['evidence', '--success', '-', '--failure', 'failure.json', '--json'],
      SUCCESS,
    );
    expect(status).toBe(0);
    const receipt = JSON.parse(out);
    expect(receipt).toMatchObject({ success: true });
    expect(receipt.details.cases[0]).toMatchObject({ name: 'success', file: '-', conformant: true });
    const twice = await verdict(['evidence', '--success', '-', '--failure', '-', '--json'], SUCCESS);
    expect(twice.status).toBe(2);
    expect(JSON.parse(twice.out)).toMatchObject({ error_code: 'invalid_arguments' });
  });

  test('an MCP profile without --tool-definition is a failing receipt with a global violation, exit 1', async () => {
    const { status, out } = await verdict([
      'evidence',
      '--profile',
      'mcp-2026-07-28',
      '--success',
      'success.json',
      '--failure',
      'failure.json',
      '--json',
    ]);
    expect(status).toBe(1);
    const receipt = JSON.parse(out);
    expect(receipt).toMatchObject({ success: false, receipt_schema: expect.any(String) });
    expect(receipt.details.tool_definition).toBeNull();
    expect(receipt.details.violations.join('\n')).toMatch(/^tool_definition_missing/m);
  });

  test.each([
    ['validate', ['validate', '--nope']],
    ['gateway', ['gateway', '--nope']],
    ['mcp serve', ['mcp', 'serve', '--nope']],
    ['normalize', ['normalize', '--nope']],
  ])('a usage error names the command as "Invalid arguments for %s:"', async (name, argv) => {
    const { status, out } = await verdict([...argv, '--json']);
    expect(status).toBe(2);
    expect(JSON.parse(out).message).toMatch(new RegExp(`^Invalid arguments for ${name}: `));
  });

  test.each([
    [['normalise'], '`normalize`'],
    [['valdiate', 'x.json'], '`validate`'],
    [['gateway', 'keys', 'creat', '--name', 'a'], '`create`'],
    [['--verison'], '`--version`'],
    [['validate', 'x.json', '--jsn'], '`--json`'],
    [['gateway', '--prot', '1'], '`--port`'],
    [['mcp', 'serve', '--tokn-file', 't'], '`--token-file`'],
    [['evidence', '--success', 'a', '--failure', 'b', '--tool-def', 't'], '`--tool-definition`'],
  ])('an unknown word %j suggests the closest known one, exit 2', async (argv, suggestion) => {
    const human = await verdict(argv);
    expect(human.status).toBe(2);
    expect(human.err).toContain(`Did you mean ${suggestion}?`);
    const json = await verdict([...argv, '--json']);
    expect(json.status).toBe(2);
    expect(JSON.parse(json.out).message).toContain(`Did you mean ${suggestion}?`);
  });

  test('a word close to nothing gets no suggestion', async () => {
    const { status, err } = await verdict(['deploy']);
    expect(status).toBe(2);
    expect(err).toContain('Unknown command "deploy".');
    expect(err).not.toContain('Did you mean');
  });

  test('a tool definition without outputSchema is not reported as checked', async () => {
    const { out } = await verdict([
      'mcp',
      'mcp-result.json',
      '--tool-definition',
      'not-a-tool.json',
      '--json',
    ]);
    const doc = JSON.parse(out);
    expect(JSON.stringify(doc)).toContain('output_schema_missing');
    expect(JSON.stringify(doc)).not.toContain('"output_schema_checked":true');
  });

  test('meta.duration_ms is rounded to 0.01 ms', async () => {
    const io = memoryIo({ cwd: dir, env: {}, stdinIsTTY: true });
    let clock = 0;
    io.now = () => {
      clock += 1.234_567_89;
      return clock;
    };
    await run(['validate', 'success.json', '--json'], io);
    const { duration_ms } = JSON.parse(io.stdout.text()).meta;
    expect(Math.round(duration_ms * 100) / 100).toBe(duration_ms);
    expect(duration_ms).toBeGreaterThan(0);
  });
});
