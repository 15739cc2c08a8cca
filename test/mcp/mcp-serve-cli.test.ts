import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { parseHttpAddress } from '../../src/cli/commands/mcp-serve.js';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';

describe('parseHttpAddress', () => {
  test.each([
    ['127.0.0.1:8080', { host: '127.0.0.1', port: 8080 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    [':3000', { host: '127.0.0.1', port: 3000 }],
    ['3000', { host: '127.0.0.1', port: 3000 }],
    ['[::1]:9000', { host: '::1', port: 9000 }],
  ])('reads %s', (text, address) => {
    expect(parseHttpAddress(text)).toEqual(address);
  });

  test.each(['', 'host:', 'host:port', '1.2.3.4:70000', '::1:80', 'a:b:1'])('refuses %j', (text) => {
    expect(parseHttpAddress(text)).toBeUndefined();
  });
});

describe('verdict mcp serve', () => {
  test('a bad --http value is a usage error with an invalid_arguments document', async () => {
    const io = memoryIo();
    expect(await run(['mcp', 'serve', '--http', 'nowhere', '--json'], io)).toBe(2);
    expect(JSON.parse(io.stdout.text())).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  });

  test('an address in use is a serve_failed failure result, not an internal error', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = busy.address() as { port: number };
      const io = memoryIo();
      expect(await run(['mcp', 'serve', '--http', `127.0.0.1:${port}`, '--json'], io)).toBe(1);
      expect(JSON.parse(io.stdout.text())).toMatchObject({
        success: false,
        error_code: 'serve_failed',
        details: { code: 'EADDRINUSE' },
      });
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  test('--help shows its usage', async () => {
    const io = memoryIo();
    expect(await run(['mcp', 'serve', '--help'], io)).toBe(0);
    expect(io.stdout.text()).toContain('Usage: verdict mcp serve [options]');
    expect(io.stdout.text()).toContain('--http <HOST:PORT>');
    expect(io.stdout.text()).toMatch(/Error codes:\n {2}invalid_arguments .*\n {2}serve_failed /);
  });

  test('verdict mcp without serve still validates tool results', async () => {
    const io = memoryIo({ stdin: '{"content":[],"structuredContent":{"success":true,"message":"ok"}}' });
    expect(await run(['mcp', '--spec-version', '2025-11-25', '--json'], io)).toBe(0);
  });
});
