import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { VERSION } from '../../src/cli/version.js';
import { runsAsRoot } from '../helpers/invoke-command.js';
import { spawnCli } from '../helpers/spawn-cli.js';

const NOBODY = 65_534;

describe('the CLI copy for unprivileged runs', () => {
  test('sits where every user can reach it, wherever the clone is', () => {
    const cli = inject('sharedCli');
    expect(statSync(cli).mode & 0o005).toBe(0o005);
    for (let folder = dirname(cli); folder !== dirname(folder); folder = dirname(folder)) {
      // Others need search permission on every folder above the file to open it.
      expect({ folder, searchable: (statSync(folder).mode & 0o001) !== 0 }).toEqual({
        folder,
        searchable: true,
      });
    }
  });

  test.runIf(runsAsRoot)('runs as an unprivileged user', async () => {
    const spawned = await spawnCli(['--version'], { cwd: '/', uid: NOBODY });
    expect(spawned).toMatchObject({ status: 0, stdout: `${VERSION}\n` });
  });
});
