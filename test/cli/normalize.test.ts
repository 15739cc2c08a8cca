import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { validateResult } from '../../src/contract/validate-result.js';
import { validateUnifiedOutput } from '../../src/unified/index.js';
import { memoryIo } from '../helpers/memory-io.js';
import { converseEventStream } from '../unified/encode-event-stream.js';

let dir: string;
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CHAT = {
  id: 'chatcmpl-cli',
  object: 'chat.completion',
  model: 'gpt-4.1-mini',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'Hello from a file.' }, finish_reason: 'stop' },
  ],
  usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-normalize-'));
  writeFileSync(join(dir, 'chat.json'), JSON.stringify(CHAT));
  writeFileSync(join(dir, 'speech.mp3'), new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00, 0x00]));
  writeFileSync(
    join(dir, 'quota.json'),
    '{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","code":"insufficient_quota"}}',
  );
  const events = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 3, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Streamed.' } },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
    { type: 'message_stop' },
  ];
  writeFileSync(
    join(dir, 'anthropic.sse'),
    events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''),
  );
  writeFileSync(join(dir, 'anthropic.jsonl'), events.map((e) => JSON.stringify(e)).join('\n'));
  writeFileSync(
    join(dir, 'converse.bin'),
    converseEventStream([
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'From Bedrock.' } } },
      { messageStop: { stopReason: 'end_turn' } },
      { metadata: { usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } } },
    ]),
  );
});

async function normalize(argv: string[], stdin?: string) {
  const io = memoryIo({ cwd: dir, ...(stdin === undefined ? {} : { stdin }) });
  const status = await run(['normalize', ...argv], io);
  return { status, io, text: io.stdout.text() };
}

describe('verdict normalize', () => {
  test('prints the success envelope itself and exits 0', async () => {
    const { status, text } = await normalize([
      '--format',
      'openai.chat',
      '--header',
      'x-request-id: req_cli',
      '--request-header',
      `traceparent: 00-${TRACE}-00f067aa0ba902b7-01`,
      'chat.json',
    ]);
    expect(status).toBe(0);
    const envelope = JSON.parse(text);
    expect(validateUnifiedOutput(envelope).valid).toBe(true);
    expect(envelope).toMatchObject({
      success: true,
      content: 'Hello from a file.',
      usage: { input_tokens: 5, output_tokens: 4 },
      metadata: { trace_id: TRACE, provider_request_id: 'req_cli' },
    });
  });

  test('prints a failure envelope and exits 1; --status and --trace-id are used', async () => {
    const { status, text } = await normalize([
      '--format',
      'openai.responses',
      '--status',
      '429',
      '--trace-id',
      'trc_cli',
      'quota.json',
    ]);
    expect(status).toBe(1);
    expect(JSON.parse(text)).toMatchObject({
      success: false,
      error: { code: 'INSUFFICIENT_CREDITS' },
      metadata: { trace_id: 'trc_cli' },
    });
  });

  test('reads the body from standard input and generates a trace id', async () => {
    const { status, text } = await normalize(['--format', 'openai.chat', '-'], JSON.stringify(CHAT));
    expect(status).toBe(0);
    expect(JSON.parse(text).metadata.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  test('reads a binary speech body with its content type', async () => {
    const { status, text } = await normalize([
      '--format',
      'openai.speech',
      '--header',
      'content-type: audio/mpeg',
      'speech.mp3',
    ]);
    expect(status).toBe(0);
    expect(JSON.parse(text).files[0]).toEqual({
      data: 'SUQzBAAA',
      media_type: 'audio/mpeg',
      name: 'speech.mp3',
    });
  });

  test('reads a stream as raw SSE and as JSON lines, to the same envelope', async () => {
    const sse = await normalize([
      '--format',
      'anthropic.messages',
      '--stream',
      '--trace-id',
      't',
      'anthropic.sse',
    ]);
    const lines = await normalize([
      '--format',
      'anthropic.messages',
      '--stream',
      '--trace-id',
      't',
      'anthropic.jsonl',
    ]);
    expect(sse.status).toBe(0);
    expect(JSON.parse(sse.text)).toMatchObject({
      content: 'Streamed.',
      usage: { input_tokens: 3, output_tokens: 2 },
    });
    expect(lines.text).toBe(sse.text);
  });

  test('--provider labels an OpenAI-compatible body, success or failure', async () => {
    const { status, text } = await normalize([
      '--format',
      'openai-compatible.chat',
      '--provider',
      'groq',
      'chat.json',
    ]);
    expect(status).toBe(0);
    expect(JSON.parse(text)).toMatchObject({ success: true, provider: 'groq' });
    const failed = await normalize([
      '--format',
      'openai-compatible.chat',
      '--provider',
      'deepseek',
      '--status',
      '429',
      'quota.json',
    ]);
    expect(failed.status).toBe(1);
    expect(JSON.parse(failed.text)).toMatchObject({ success: false, provider: 'deepseek' });
    const plain = await normalize(['--format', 'openai-compatible.chat', 'chat.json']);
    expect(JSON.parse(plain.text).provider).toBe('openai-compatible');
  });

  test('reads a raw Bedrock ConverseStream capture (AWS event-stream bytes)', async () => {
    const { status, text } = await normalize(['--format', 'bedrock.converse', '--stream', 'converse.bin']);
    expect(status).toBe(0);
    expect(JSON.parse(text)).toMatchObject({
      provider: 'bedrock',
      content: 'From Bedrock.',
      usage: { input_tokens: 3, output_tokens: 4 },
    });
  });

  test('an unparseable body is an INVALID_PROVIDER_RESPONSE envelope, exit 1', async () => {
    const { status, text } = await normalize(['--format', 'google.generate-content', '-'], '<html>');
    expect(status).toBe(1);
    expect(JSON.parse(text).error.code).toBe('INVALID_PROVIDER_RESPONSE');
  });

  test.each([
    [['--format', 'acme.chat', 'chat.json'], 'unknown format'],
    [['chat.json'], 'missing --format'],
    [['--format', 'openai.videos', '--stream', 'chat.json'], 'a format without streams'],
    [['--format', 'openai.chat', '--header', 'no colon', 'chat.json'], 'a bad header line'],
    [['--format', 'openai.chat', '--status', '700', 'chat.json'], 'a status out of range'],
    [['--format', 'openai-compatible.chat', '--provider', 'Groq AI', 'chat.json'], 'a bad provider id'],
  ])('reports a usage error as a contract result with exit 2 (%j: %s)', async (argv) => {
    const { status, text } = await normalize([...argv, '--json']);
    expect(status).toBe(2);
    const doc = JSON.parse(text);
    expect(doc).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    expect(validateResult(doc).valid).toBe(true);
  });

  test('a missing file is invalid_json_input with exit 1, as in every command', async () => {
    const { status, text } = await normalize(['--format', 'openai.chat', 'missing.json', '--json']);
    expect(status).toBe(1);
    const doc = JSON.parse(text);
    expect(doc).toMatchObject({
      success: false,
      error_code: 'invalid_json_input',
      details: { read_error: { reason: 'not_found' } },
    });
    expect(validateResult(doc).valid).toBe(true);
  });
});

describe('verdict schema unified', () => {
  test('prints the unified output schema', async () => {
    const io = memoryIo({ cwd: dir });
    expect(await run(['schema', 'unified'], io)).toBe(0);
    expect(JSON.parse(io.stdout.text())).toMatchObject({
      $id: 'https://verdict.dev/schemas/unified-output-v1.schema.json',
    });
  });
});

describe('verdict validate --contract unified', () => {
  beforeAll(() => {
    writeFileSync(
      join(dir, 'envelope.json'),
      JSON.stringify({
        success: true,
        content: 'ok',
        provider: 'openai',
        usage: { input_tokens: 1, output_tokens: 1 },
        metadata: { trace_id: 't' },
        images: [],
        files: [],
        videos: [],
      }),
    );
    writeFileSync(
      join(dir, 'half.json'),
      '{"success":false,"provider":"system","metadata":{"trace_id":"t"},"content":"x"}',
    );
    writeFileSync(join(dir, 'twice.json'), '{"success":true,"success":true}');
  });

  async function validate(argv: string[]) {
    const io = memoryIo({ cwd: dir });
    const status = await run(['validate', '--contract', 'unified', '--json', ...argv], io);
    return { status, doc: JSON.parse(io.stdout.text()) };
  }

  test('accepts a valid envelope, exit 0', async () => {
    const { status, doc } = await validate(['envelope.json']);
    expect(status).toBe(0);
    expect(doc).toMatchObject({
      success: true,
      message: 'envelope.json conforms to the unified AI output contract.',
      details: { contract: 'https://verdict.dev/schemas/unified-output-v1.schema.json' },
    });
  });

  test('reports every unified violation code, exit 1', async () => {
    const { status, doc } = await validate(['half.json', 'twice.json']);
    expect(status).toBe(1);
    expect(doc.error_code).toBe('contract_violation');
    expect(doc.details.inputs[0].violations.map((v: { code: string }) => v.code)).toEqual([
      'failure_with_success_member',
      'error_invalid',
    ]);
    expect(doc.details.inputs[1].violations[0]).toMatchObject({ code: 'duplicate_member', path: '' });
    expect(validateResult(doc).valid).toBe(true);
  });

  test('a normalized envelope passes', async () => {
    const normalized = await normalize(['--format', 'openai.chat', 'chat.json']);
    writeFileSync(join(dir, 'normalized.json'), normalized.text);
    expect((await validate(['normalized.json'])).status).toBe(0);
  });

  test('--jsonl is a usage error with --contract unified', async () => {
    expect((await validate(['--jsonl', 'envelope.json'])).status).toBe(2);
  });
});
