import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, ok } from '../contract/builders.js';
import { renderTable } from '../producer/render.js';
import { EXIT_STATUS_LINE } from '../producer/render-help.js';
import { EXIT, emitResult, reportUsageError, runCommand, withMeta } from '../producer/run-command.js';
import { suggestClosest } from '../producer/suggest-closest.js';
import type { CommandDefinition, CommandIo } from '../producer/types.js';

/**
 * A subcommand that takes its arguments over instead of running under the transport profile, such as a
 * server (`verdict mcp serve`). It returns the exit status; `--json` given before its name is handed on.
 */
export type ArgumentHandler = (argv: readonly string[], io: CommandIo) => Promise<number>;

/** What a declared subcommand is once loaded: one command, a group of further subcommands, or a handler. */
export type Subcommand =
  | { command: CommandDefinition }
  | { group: SubcommandGroup }
  | { handler: ArgumentHandler };

/** One entry of a subcommand table: its name and summary, and a loader for the code behind it. */
export interface SubcommandEntry {
  /** The word that selects it. */
  name: string;
  /** One line for the group's help. */
  summary: string;
  /** Imports the subcommand on demand, so `verdict validate` never loads the MCP SDK (start-up time). */
  load(): Subcommand | Promise<Subcommand>;
  /**
   * The packages it needs at run time beyond verdict's own dependency (optional peers): when one is missing,
   * all the missing ones are named together, with one command that installs them.
   */
  needs?: readonly string[];
  /** A package that brings verdict and every package of `needs`, offered as the one-install alternative. */
  bundle?: string;
}

/** A command that has subcommands: `verdict` itself, `verdict tool`, `verdict mcp`. */
export interface SubcommandGroup {
  /** One paragraph for the group's help. */
  description: string;
  /** What a subcommand is called in messages: `command`, `tool`. */
  noun: string;
  /** The subcommands, in the order help lists them. */
  subcommands: readonly SubcommandEntry[];
  /**
   * Runs when the first word names no subcommand (`verdict tool --list`, `verdict mcp FILE`). Without one, or
   * when it takes no positional argument, an unknown word is a usage error.
   */
  fallback?: CommandDefinition;
  /** When set, `--version` / `-v` prints it (with `--json`, as a contract result). */
  version?: string;
}

/** `meta.command` of a group's own results: its usage without the program's name (`tool`, `mcp serve`). */
function commandName(usage: string): string {
  const space = usage.indexOf(' ');
  return space === -1 ? usage : usage.slice(space + 1);
}

const HELP_WORDS = new Set(['--help', '-h', 'help']);
const VERSION_WORDS = new Set(['--version', '-v']);

/** The help of a group without a fallback: usage, description, its subcommands and the global options. */
export function renderGroupHelp(group: SubcommandGroup, usage: string): string {
  const options: [string, string][] = [
    [
      '--json',
      'Anywhere on the command line, before or after the command: print exactly one JSON document on stdout.',
    ],
    ['-h, --help', `Show help (${usage} <${group.noun}> --help for a ${group.noun}).`],
  ];
  if (group.version !== undefined) options.push(['-v, --version', 'Print the version.']);
  return [
    `Usage: ${usage} <${group.noun}> [options]`,
    '',
    group.description,
    '',
    `${group.noun[0]?.toUpperCase()}${group.noun.slice(1)}s:`,
    ...renderTable(group.subcommands.map((entry) => [entry.name, entry.summary])),
    '',
    'Options:',
    ...renderTable(options),
    '',
    EXIT_STATUS_LINE,
    '',
  ].join('\n');
}

/** `--version`: the bare version for people, a contract result with `--json`; any other word is a usage error. */
function printVersion(version: string, rest: readonly string[], io: CommandIo, json: boolean, usage: string) {
  const extra = rest.find((word) => word !== '--json');
  json ||= rest.includes('--json');
  if (extra !== undefined) {
    const message = `--version takes no arguments; got ${JSON.stringify(extra)}.`;
    const result = fail(`Invalid arguments for ${usage}: ${message}`, {
      error: message,
      error_code: 'invalid_arguments',
      details: { usage: `Run ${usage} --help for the options.` },
    });
    return reportUsageError(withMeta(result, commandName(usage), 0), io, json, usage);
  }
  if (!json) {
    io.stdout.write(`${version}\n`);
    return EXIT.success;
  }
  emitResult(withMeta(ok(`${usage} ${version}`, { version }), commandName(usage), 0), io, true);
  return EXIT.success;
}

/**
 * True when a package is installed where Node looks for it from this module: a `node_modules/<name>` folder
 * with a package.json in this folder or one above it.
 */
function isInstalled(name: string): boolean {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  return specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : (specifier.split('/')[0] ?? specifier);
}

/**
 * Loads a subcommand. Servers (`mcp serve`, `gateway`) need packages verdict declares as optional peers; when
 * one is not installed (`npm install verdict` alone), the answer names every one of the entry's `needs` that is
 * missing, at once, with the command that installs them all, instead of a module error (docs/install.md).
 */
async function loadSubcommand(
  entry: SubcommandEntry,
  io: CommandIo,
  json: boolean,
  usage: string,
): Promise<Subcommand | number> {
  try {
    return await entry.load();
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(String((thrown as Error)?.message))?.[1];
    if (code !== 'ERR_MODULE_NOT_FOUND' || missing === undefined || missing.startsWith('.')) throw thrown;
    const reported = packageOf(missing);
    const names = [...new Set([reported, ...(entry.needs ?? []).filter((name) => !isInstalled(name))])];
    const command = `npm install ${names.join(' ')}`;
    const listed =
      names.length === 1
        ? `the package ${reported}, which is not installed`
        : `${names.length} packages that are not installed: ${names.join(', ')}`;
    const result = fail(`${usage} needs ${listed}.`, {
      error: [
        `Install ${names.length === 1 ? 'it' : 'them all at once'} next to verdict: ${command}`,
        entry.bundle === undefined
          ? ''
          : ` — or install ${entry.bundle} instead, which brings verdict and all of them (npx ${entry.bundle} --help)`,
        ". The package's docs/install.md says what each part needs.",
      ].join(''),
      error_code: 'missing_dependency',
      details: { package: reported, packages: names, install_command: command },
    });
    emitResult(withMeta(result, commandName(usage), 0), io, json);
    return EXIT.failure;
  }
}

/** Runs one loaded subcommand with the words after its name. */
async function runSubcommand(
  loaded: Subcommand,
  argv: readonly string[],
  io: CommandIo,
  usage: string,
): Promise<number> {
  if ('command' in loaded) return runCommand(loaded.command, argv, io, { usage });
  if ('group' in loaded) return dispatch(loaded.group, argv, io, usage);
  return loaded.handler(argv, io);
}

/** The options a group understands before its subcommand's name. */
const GROUP_FLAGS = ['--help', '--version', '--json'];

/**
 * Runs a group's command line: finds the subcommand its first word names and runs it with the rest, or runs
 * the group's fallback, or answers `--help` / `--version`. `--json` may come before the subcommand's name and
 * then holds for the whole line. Unknown words are usage errors (exit 2). Never calls `process.exit`.
 */
export async function dispatch(
  group: SubcommandGroup,
  argv: readonly string[],
  io: CommandIo,
  usage: string,
): Promise<number> {
  let index = 0;
  while (argv[index] === '--json') index++;
  const json = index > 0;
  const word = argv[index];
  const rest = argv.slice(index + 1);
  // `--json` before the name travels on as the flag itself, which every parser below understands.
  const handOn = (words: readonly string[]) => (json ? ['--json', ...words] : words);

  const entry = group.subcommands.find((candidate) => candidate.name === word);
  if (entry !== undefined) {
    const loaded = await loadSubcommand(entry, io, json || rest.includes('--json'), `${usage} ${entry.name}`);
    return typeof loaded === 'number'
      ? loaded
      : runSubcommand(loaded, handOn(rest), io, `${usage} ${entry.name}`);
  }
  if (word !== undefined && group.version !== undefined && VERSION_WORDS.has(word)) {
    return printVersion(group.version, rest, io, json, usage);
  }
  const { fallback } = group;
  const takesWords = (fallback?.positionals ?? []).length > 0;
  if (fallback !== undefined && (word === undefined || word.startsWith('-') || takesWords)) {
    return runCommand(fallback, argv, io, { usage, subcommands: group.subcommands });
  }
  if (word === 'help' && rest[0] !== undefined) {
    const named = group.subcommands.find((candidate) => candidate.name === rest[0]);
    if (named !== undefined)
      return runSubcommand(await named.load(), ['--help'], io, `${usage} ${named.name}`);
  }
  if (word !== undefined && HELP_WORDS.has(word)) {
    io.stdout.write(renderGroupHelp(group, usage));
    return EXIT.success;
  }
  if (word === undefined && !json) {
    // No command at all: the help is the answer, on stderr, as for any usage error.
    io.stderr.write(renderGroupHelp(group, usage));
    return EXIT.usage;
  }
  const names = group.subcommands.map((candidate) => candidate.name);
  const flag = word?.startsWith('--') === true;
  const closest =
    word === undefined || (word.startsWith('-') && !flag)
      ? undefined
      : flag
        ? suggestClosest(
            word,
            GROUP_FLAGS.filter((name) => name !== '--version' || group.version !== undefined),
          )
        : suggestClosest(word, names);
  const hint = closest === undefined ? '' : ` Did you mean \`${closest}\`?`;
  const message =
    word === undefined
      ? `No ${group.noun} given.`
      : word.startsWith('-')
        ? `Unknown option ${word}.${hint}`
        : `Unknown ${group.noun} ${JSON.stringify(word)}.${hint}`;
  const result = fail(`${message} Run ${usage} --help for the ${group.noun}s.`, {
    error: `Known ${group.noun}s: ${names.join(', ')}.`,
    error_code: 'invalid_arguments',
    details: { [`${group.noun}s`]: names },
  });
  return reportUsageError(
    withMeta(result, commandName(usage), 0),
    io,
    json || argv.includes('--json'),
    usage,
  );
}
