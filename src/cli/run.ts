import type { CommandIo } from '../producer/types.js';
import { VERDICT } from './commands/index.js';
import { dispatch } from './subcommands.js';
import { VERSION } from './version.js';

export { VERSION };

/**
 * The `verdict` command line: dispatches to a subcommand and returns the exit status.
 * Never calls `process.exit`; `io` carries every stream, so tests run it in-process.
 */
export function run(argv: readonly string[], io: CommandIo): Promise<number> {
  return dispatch(VERDICT, argv, io, 'verdict');
}
