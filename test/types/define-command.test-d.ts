import { describe, expectTypeOf, test } from 'vitest';
import { fail, ok } from '../../src/index.js';
import { defineCommand } from '../../src/producer/define-command.js';
import type { externalCommand } from '../../src/producer/external-command.js';
import type { CommandDefinition } from '../../src/producer/types.js';

describe('defineCommand', () => {
  test("infers the code union from the command's errorCodes table", () => {
    const command = defineCommand({
      name: 'probe',
      description: 'Probes.',
      options: {},
      errorCodes: { probe_failed: 'The probe failed.', probe_lost: 'The probe is lost.' },
      run: () => fail('It failed.', { error_code: 'probe_failed' }),
    });
    expectTypeOf(command).toEqualTypeOf<
      CommandDefinition<Record<never, never>, 'probe_failed' | 'probe_lost'>
    >();
    expectTypeOf(command).toExtend<CommandDefinition>();
  });

  test('a code that run returns and the table does not list is a type error', () => {
    // @ts-expect-error probe_exploded is not in errorCodes
    defineCommand({
      name: 'probe',
      description: 'Probes.',
      options: {},
      errorCodes: { probe_failed: 'The probe failed.' },
      run: ({ positionals }) =>
        positionals.length > 0
          ? fail('It exploded.', { error_code: 'probe_exploded' })
          : fail('It failed.', { error_code: 'probe_failed' }),
    });
    // @ts-expect-error a command without a table returns no codes of its own
    defineCommand({
      name: 'probe',
      description: 'Probes.',
      options: {},
      run: async () => fail('It failed.', { error_code: 'probe_failed' }),
    });
  });

  test("the runtime's codes and successes need no entry", () => {
    defineCommand({
      name: 'probe',
      description: 'Probes.',
      options: {},
      run: ({ positionals }) =>
        positionals.length === 0
          ? fail('Give a target.', { error_code: 'invalid_arguments' })
          : ok('Probed.', { target: positionals[0] }),
    });
  });

  test("verdict run's codes are tied to its table", () => {
    type RunCodes = typeof externalCommand extends CommandDefinition<infer _O, infer C> ? C : never;
    expectTypeOf<'command_failed' | 'command_killed' | 'interrupted'>().toExtend<RunCodes>();
    expectTypeOf<'command_zapped'>().not.toExtend<RunCodes>();
  });
});
