import { describe, expect, test } from 'vitest';
import { GATEWAY_COMMAND } from '../../src/cli/commands/gateway.js';
import { MCP_SERVE_COMMAND } from '../../src/cli/commands/mcp-serve.js';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../helpers/memory-io.js';

/** The servers parse their own arguments, but are declared like every command: --help comes from the declaration. */
describe.each([
  ['gateway', ['gateway'], GATEWAY_COMMAND],
  ['mcp serve', ['mcp', 'serve'], MCP_SERVE_COMMAND],
] as const)('verdict %s --help', (name, words, declaration) => {
  test('lists every option of the declaration, its error codes and its exit statuses', async () => {
    const io = memoryIo({ env: { NO_COLOR: '1' } });
    expect(await run([...words, '--help'], io)).toBe(0);
    const help = io.stdout.text();
    expect(help).toContain(`Usage: verdict ${name} [options]`);
    for (const option of Object.keys(declaration.options)) expect(help).toContain(`--${option}`);
    const codes = help.slice(help.indexOf('Error codes:'));
    for (const code of Object.keys(declaration.errorCodes)) expect(codes).toContain(`  ${code}  `);
    // A server stops gracefully on a signal: the runtime's "interrupted" is not one of its codes.
    expect(codes).not.toContain('interrupted  ');
    expect(help).toContain(declaration.exitStatus);
  });

  test('an option the declaration does not have is a usage error naming the help', async () => {
    const io = memoryIo();
    expect(await run([...words, '--no-such-option', '--json'], io)).toBe(2);
    expect(JSON.parse(io.stdout.text())).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  });
});
