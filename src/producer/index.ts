/**
 * The producer runtime (`verdict/node`): turn any Node CLI into a conforming producer under the CLI JSON
 * transport profile, and wrap external commands as contract results.
 */
export { defineCommand } from './define-command.js';
export { externalCommand } from './external-command.js';
export type { InterruptSignal } from './interrupt.js';
export { INTERRUPT_SIGNALS, Interruption, interruptedStatus } from './interrupt.js';
export { nodeIo } from './node-io.js';
export type { ParsedArguments } from './parse-arguments.js';
export { parseArguments } from './parse-arguments.js';
export type { InputBytes, ReadInputOptions } from './read-input.js';
export { readInput, readStream } from './read-input.js';
export type { RecordsOptions, Style, TableOptions } from './render.js';
export { renderRecords, renderResult, renderTable, styleFor } from './render.js';
export type { HelpEntry } from './render-help.js';
export { renderHelp } from './render-help.js';
export type { RunOptions } from './run-command.js';
export { describeThrown, EXIT, emitResult, reportUsageError, runCommand, withMeta } from './run-command.js';
export type {
  BackgroundReport,
  CapturedOutput,
  ExternalOutcome,
  ExternalStdin,
  RunExternalOptions,
} from './run-external.js';
export { runExternal, toExternalResult } from './run-external.js';
export type {
  CommandContext,
  CommandDefinition,
  CommandInput,
  CommandIo,
  OptionSpec,
  OptionSpecs,
  OutputStream,
  ParsedOptions,
  PositionalSpec,
  RenderContext,
} from './types.js';
