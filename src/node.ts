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
  CapturedOutput,
  CommandContext,
  CommandDefinition,
  CommandInput,
  CommandIo,
  ExternalOutcome,
  ExternalStdin,
  InputBytes,
  OptionSpec,
  OptionSpecs,
  OutputStream,
  ParsedArguments,
  ParsedOptions,
  PositionalSpec,
  ReadInputOptions,
  RecordsOptions,
  RenderContext,
  RunExternalOptions,
  RunOptions,
  Style,
  TableOptions,
} from './producer/index.js';
export {
  defineCommand,
  describeThrown,
  EXIT,
  emitResult,
  externalCommand,
  nodeIo,
  parseArguments,
  readInput,
  readStream,
  renderHelp,
  renderRecords,
  renderResult,
  renderTable,
  reportUsageError,
  runCommand,
  runExternal,
  styleFor,
  toExternalResult,
  withMeta,
} from './producer/index.js';
