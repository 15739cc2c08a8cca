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

  test('names every package of its needs that is missing, at once, with one command that installs them all', async () => {
    const io = memoryIo();
    const group: SubcommandGroup = {
      description: 'Test.',
      noun: 'command',
      subcommands: [
        {
          name: 'serve',
          summary: 'Serves.',
          load: () => {
            throw missingPackage('absent-server/dist/index.mjs');
          },
          // zod is installed here; the other two are not.
          needs: ['absent-server', 'zod', '@absent/provider'],
          bundle: 'absent-bundle',
        },
      ],
    };
    expect(await dispatch(group, ['serve', '--json'], io, 'verdict')).toBe(1);
    const result = JSON.parse(io.stdout.text());
    expect(result).toMatchObject({
      success: false,
      message: 'verdict serve needs 2 packages that are not installed: absent-server, @absent/provider.',
      error_code: 'missing_dependency',
      details: {
        package: 'absent-server',
        packages: ['absent-server', '@absent/provider'],
        install_command: 'npm install absent-server @absent/provider',
      },
    });
    expect(result.error).toContain('npm install absent-server @absent/provider');
    expect(result.error).toContain('or install absent-bundle instead');
  });

  test('any other load failure is not hidden', async () => {
    const group = groupLoading(() => {
      throw new Error('boom');
    });
    await expect(dispatch(group, ['serve'], memoryIo(), 'verdict')).rejects.toThrow('boom');
  });
});
