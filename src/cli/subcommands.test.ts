import { describe, expect, test } from 'vitest';
import { memoryIo } from '../../test/helpers/memory-io.js';
import { dispatch, type SubcommandGroup } from './subcommands.js';

function missingPackage(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /x/dist/cli/gateway.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

function groupLoading(load: () => never): SubcommandGroup {
  return {
    description: 'Test.',
    noun: 'command',
    subcommands: [{ name: 'serve', summary: 'Serves.', load }],
  };
}

describe('dispatch', () => {
  test('names a peer package that is not installed instead of failing with a module error', async () => {
    const io = memoryIo();
    const group = groupLoading(() => {
      throw missingPackage('@hono/node-server/dist/index.mjs');
    });
    const status = await dispatch(group, ['serve', '--json'], io, 'verdict');
    expect(status).toBe(1);
    expect(JSON.parse(io.stdout.text())).toMatchObject({
      success: false,
      error_code: 'missing_dependency',
      details: { package: '@hono/node-server' },
    });
  });

  test('any other load failure is not hidden', async () => {
    const group = groupLoading(() => {
      throw new Error('boom');
    });
    await expect(dispatch(group, ['serve'], memoryIo(), 'verdict')).rejects.toThrow('boom');
  });
});
