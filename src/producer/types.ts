import type { JsonSchema } from '../contract/schema.js';
import type { ResultContract } from '../contract/types.js';
import type { TextPosition } from '../json/locate.js';
import type { OptionSpecs, ParsedOptions } from './option-specs.js';

export type { OptionSpec, OptionSpecs, ParsedOptions } from './option-specs.js';

/** ANSI styles, or none: the colours a rendering may use. */
export interface Style {
  /** Green text for success. */
  ok(text: string): string;
  /** Red text for failure. */
  bad(text: string): string;
  /** Yellow text for warnings. */
  warn(text: string): string;
  /** Dim text for secondary facts. */
  dim(text: string): string;
  /** Bold text for headings. */
  bold(text: string): string;
}

/** A positional argument of a command. */
export interface PositionalSpec {
  /** Name shown in help (`FILE`). */
  name: string;
  /** One line of help. */
  description: string;
  /** It takes every remaining argument. */
  variadic?: boolean;
  /** It must be given. */
  required?: boolean;
}

/** A writable text stream, as `process.stdout` is. */
export interface OutputStream {
  /** Writes a chunk. */
  write(chunk: string | Uint8Array): unknown;
  /** True when the stream is a terminal. */
  isTTY?: boolean;
  /** Width of the terminal in characters, when it is one. */
  columns?: number;
}

/** Everything a command may touch of the outside world, so tests can drive it in-process. */
export interface CommandIo {
  /** Receives the one document in `--json` mode, the rendering otherwise. */
  stdout: OutputStream;
  /** Receives progress, logs and child output. */
  stderr: OutputStream;
  /** Standard input. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Environment variables. */
  env: Record<string, string | undefined>;
  /** Working directory that relative paths resolve against. */
  cwd: string;
  /** Milliseconds from an arbitrary origin, for durations (`process.hrtime` in production). */
  now(): number;
  /**
   * Aborted when the run is interrupted (SIGINT, SIGTERM or SIGHUP; the reason is an `Interruption` naming
   * the signal); tests abort it themselves.
   */
  signal?: AbortSignal;
}

/** What a running command can use besides its options. */
export interface CommandContext {
  /** Reports progress to stderr (never stdout). */
  progress(message: string): void;
  /** Writes a log line to stderr (never stdout). */
  log(message: string): void;
  /** Aborted when the run is interrupted; long work should stop when it fires. */
  signal: AbortSignal;
  /** The I/O of this run. */
  io: CommandIo;
  /** True in `--json` mode. */
  json: boolean;
  /**
   * Records where a JSON Pointer of an input lies in its text, so the rendering for people can print
   * `FILE:LINE:COL`; nothing a command records here reaches the JSON document. Absent outside `runCommand`.
   */
  place?(file: string, pointer: string, position: TextPosition): void;
}

/** What a command's rendering for people may use: colours, the width to fit and the places recorded. */
export interface RenderContext {
  /** Colours, or none (`NO_COLOR`, not a terminal). */
  style: Style;
  /** Widest line that fits, in characters: the terminal's width, or a default when not a terminal. */
  width: number;
  /** Where a JSON Pointer of an input lies in its text, when the command recorded it ({@link CommandContext.place}). */
  placeOf(file: string, pointer: string): TextPosition | undefined;
}

/** The input handed to a command's `run`. */
export interface CommandInput<O extends OptionSpecs> {
  /** Parsed and checked options. */
  options: ParsedOptions<O>;
  /** Positional arguments, including everything after `--`. */
  positionals: string[];
}

/** The codes the runner reports for any command, which no command needs to list (see `verdict CMD --help`). */
export type RuntimeErrorCode = 'invalid_arguments' | 'interrupted' | 'unexpected_error';

/**
 * A command: its name, help, options, the JSON Schema of its domain fields, and what it does. `C` is the union
 * of its error codes, the keys of {@link CommandDefinition.errorCodes} (`defineCommand` checks `run` against it).
 */
export interface CommandDefinition<O extends OptionSpecs = OptionSpecs, C extends string = string> {
  /** Name used in `meta.command` and on the command line. */
  name: string;
  /** One paragraph of help. */
  description: string;
  /** Named options. */
  options: O;
  /** Positional arguments, in order. */
  positionals?: readonly PositionalSpec[];
  /** JSON Schema of the domain fields this command adds to its results (an object schema). */
  outputSchema?: JsonSchema;
  /** The error codes this command may report, with what each means (the runtime's codes need not be listed). */
  errorCodes?: Readonly<Record<C, string>>;
  /**
   * True when `run` answers an interruption itself: when `ctx.signal` aborts, it stops its work promptly and
   * returns its own result with `error_code: 'interrupted'`, which the runner waits for and prints. Otherwise
   * the runner prints a generic `interrupted` result at once and leaves the run behind.
   */
  answersInterrupt?: boolean;
  /** Does the work and returns a contract result; a thrown exception becomes `unexpected_error`. */
  run(input: CommandInput<O>, ctx: CommandContext): ResultContract | Promise<ResultContract>;
  /**
   * For commands whose product is another document (such as a unified AI envelope): given the guarded result,
   * returns the document to print on stdout instead of the contract result, or `undefined` to print the result.
   * The exit status still follows `success`; `context.json` says whether `--json` was given.
   */
  product?(result: ResultContract, context: { json: boolean }): unknown;
  /**
   * Renders the guarded result for a person (without `--json`). Default: {@link renderResult}, which prints
   * the outcome, the domain fields (arrays of records as tables) and the warnings.
   */
  render?(result: ResultContract, context: RenderContext): string;
}
