/**
 * `verdict/node`: the pieces of verdict that need Node.js — the producer runtime (define and run commands
 * under the CLI JSON transport profile, wrap external commands) and the reference commands.
 */

export type { DnsRecord, DnsRecordType, FileMatch, ProcessInfo } from './commands/index.js';
export {
  calculateFileHash,
  checkDns,
  findFiles,
  getCurrentDateTime,
  getDiskSpace,
  listProcesses,
  REFERENCE_COMMANDS,
  readFile,
} from './commands/index.js';
export type {
  BackgroundReport,
  CapturedOutput,
  CommandContext,
  CommandDefinition,
  CommandInput,
  CommandIo,
  ExternalOutcome,
  ExternalStdin,
  InputBytes,
  InterruptSignal,
  OptionSpec,
  OptionSpecs,
  OutputStream,
  ParsedArguments,
  ParsedOptions,
  PositionalSpec,
  ReadInputOptions,
  RunExternalOptions,
  RunOptions,
  Style,
} from './producer/index.js';
export {
  defineCommand,
  describeThrown,
  EXIT,
  emitResult,
  externalCommand,
  INTERRUPT_SIGNALS,
  Interruption,
  interruptedStatus,
  nodeIo,
  parseArguments,
  readInput,
  readStream,
  renderHelp,
  renderResult,
  runCommand,
  runExternal,
  styleFor,
  toExternalResult,
  withMeta,
} from './producer/index.js';
