import type { ResultContract } from '../contract/types.js';
import type { CommandDefinition, CommandIo, OptionSpec, OutputStream } from './types.js';

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

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** Colours only on a terminal, and never when `NO_COLOR` is set to a non-empty value (no-color.org). */
export function styleFor(stream: OutputStream, env: CommandIo['env']): Style {
  const colour = stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
  if (!colour) return { ok: plain, bad: plain, warn: plain, dim: plain, bold: plain };
  return { ok: wrap(32, 39), bad: wrap(31, 39), warn: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

const CORE = new Set(['success', 'message', 'error', 'error_code', 'details', 'warnings', 'meta']);
const MAX_VALUE_CHARS = 300;

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > MAX_VALUE_CHARS
    ? `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length} characters)`
    : text;
}

interface ListedViolation {
  code?: unknown;
  path?: unknown;
  message?: unknown;
}

function violationLines(list: unknown, style: Style, indent: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item: ListedViolation | string) => {
    if (typeof item === 'string') return `${indent}${style.bad('✖')} ${item}`;
    const where = typeof item.path === 'string' && item.path !== '' ? item.path : '(root)';
    return `${indent}${style.bad('✖')} ${String(item.code)} ${style.dim(`at ${where}`)}: ${String(item.message)}`;
  });
}

function itemLines(item: Record<string, unknown>, style: Style): string[] {
  // A suite case passes when it got its expected verdict (`passed`), even when that verdict is "not conformant".
  const good = typeof item.passed === 'boolean' ? item.passed : item.conformant === true;
  const mark = good ? style.ok('✔') : style.bad('✖');
  const name = [item.name, item.file].filter((part) => typeof part === 'string').join(': ');
  const lines = [`  ${mark} ${name}`, ...violationLines(item.violations, style, '      ')];
  const readError = item.read_error as { reason?: unknown; message?: unknown } | undefined;
  if (readError) {
    lines.push(`      ${style.bad('unreadable:')} ${String(readError.reason)}: ${String(readError.message)}`);
  }
  const warnings = Array.isArray(item.warnings) ? (item.warnings as unknown[]) : [];
  for (const warning of warnings) {
    const text =
      typeof warning === 'string'
        ? warning
        : `${String((warning as ListedViolation).code)}: ${String((warning as ListedViolation).message)}`;
    lines.push(`      ${style.warn('!')} ${text}`);
  }
  return lines;
}

/**
 * Renders a result for a person: the outcome and message, the failure, key evidence, violations and
 * warnings. The `--json` document is the machine's view; this is only a reading aid.
 */
export function renderResult(result: ResultContract, style: Style): string {
  const lines: string[] = [];
  const record = result as unknown as Record<string, unknown>;
  lines.push(result.success ? `${style.ok('✔')} ${result.message}` : `${style.bad('✖')} ${result.message}`);
  if (!result.success) {
    const code = result.error_code === undefined ? '' : style.dim(` [${result.error_code}]`);
    if (result.error !== undefined) lines.push(`  ${style.bad('error:')} ${result.error}${code}`);
    else lines.push(`  ${style.bad('error code:')} ${result.error_code}`);
  }
  for (const [key, value] of Object.entries(record)) {
    if (CORE.has(key) || value === undefined) continue;
    lines.push(`  ${style.bold(`${key}:`)} ${short(value)}`);
  }
  const details = result.details;
  if (details !== undefined) {
    for (const [key, value] of Object.entries(details)) {
      if (key === 'violations' || key === 'contract') continue;
      // Per-item verdicts (validate's inputs, a receipt's cases) read better as a list than as JSON.
      if ((key === 'inputs' || key === 'cases') && Array.isArray(value)) {
        for (const item of value as Record<string, unknown>[]) lines.push(...itemLines(item, style));
        continue;
      }
      lines.push(`  ${style.dim(`${key}:`)} ${short(value)}`);
    }
    lines.push(...violationLines(details.violations, style, '  '));
  }
  for (const warning of result.warnings ?? []) lines.push(`  ${style.warn('!')} ${warning}`);
  return `${lines.join('\n')}\n`;
}

/** A named entry of a help list: a subcommand and its summary. */
export interface HelpEntry {
  /** The word that selects it. */
  name: string;
  /** One line saying what it does. */
  summary: string;
}

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** Text before every line. Default: two spaces. */
  indent?: string;
  /** Widest line allowed, in characters; the last column is cut with `…` to fit. Default: no limit. */
  width?: number;
}

/** Number of characters (code points) a text takes, which is its width for the scripts verdict prints. */
function widthOf(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `text` cut to `width` characters, ending in `…` when it was cut. */
function truncate(text: string, width: number): string {
  if (widthOf(text) <= width) return text;
  return `${Array.from(text)
    .slice(0, Math.max(0, width - 1))
    .join('')}…`;
}

/**
 * Lays rows out as aligned columns separated by two spaces. The last column is not padded and, with a
 * `width`, is cut to fit it (a column never shrinks below a few characters).
 */
export function renderTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  const indent = options.indent ?? '  ';
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(0, ...rows.map((row) => (column < row.length - 1 ? widthOf(row[column] ?? '') : 0))),
  );
  return rows.map((row) => {
    const cells = row.map((cell, column) =>
      column < row.length - 1 ? cell + ' '.repeat((widths[column] ?? 0) - widthOf(cell)) : cell,
    );
    const line = `${indent}${cells.join('  ')}`;
    return options.width === undefined ? line.trimEnd() : truncate(line, Math.max(options.width, 20)).trimEnd();
  });
}

/** A usage error for people: what is wrong, then where the help is. */
export function renderUsageError(result: ResultContract, usage: string, style: Style): string {
  const lines = [`${style.bad(`${usage}:`)} ${result.message}`];
  if (!result.success && result.error !== undefined && !result.message.includes(result.error)) {
    lines.push(`  ${result.error}`);
  }
  const hint = `Run ${usage} --help for`;
  if (!result.message.includes(hint)) lines.push(`Run ${usage} --help for the options.`);
  return `${lines.join('\n')}\n`;
}

function optionUsage(name: string, spec: OptionSpec): string {
  const flag = spec.short ? `-${spec.short}, --${name}` : `--${name}`;
  if (spec.type === 'boolean') return flag;
  const value = spec.valueName ?? (spec.choices ? spec.choices.join('|') : spec.type.toUpperCase());
  return `${flag} <${value}>`;
}

/** What every command can report besides its own codes: the runtime adds these. */
const RUNTIME_CODES: Readonly<Record<string, string>> = {
  invalid_arguments: 'The command line is wrong (exit 2).',
  interrupted: 'The run was interrupted (Ctrl-C); exit 130.',
  unexpected_error: 'The command failed in a way it does not describe (a bug); exit 1.',
};

/**
 * The `--help` text of a command, generated from its definition so it cannot drift from what is parsed: the
 * choices listed are the ones the parser accepts, and the error codes are the command's own plus the
 * runtime's.
 */
export function renderHelp(
  definition: CommandDefinition,
  usagePrefix: string,
  subcommands: readonly HelpEntry[] = [],
): string {
  const positionalSpecs = definition.positionals ?? [];
  const positionals = positionalSpecs
    .map((p) => {
      const name = p.variadic ? `${p.name}…` : p.name;
      return p.required ? name : `[${name}]`;
    })
    .join(' ');
  const lines = [
    `Usage: ${usagePrefix} [options]${positionals ? ` [--] ${positionals}` : ''}`,
    '',
    definition.description,
    '',
  ];
  if (subcommands.length > 0) {
    lines.push('Commands:', ...renderTable(subcommands.map((entry) => [entry.name, entry.summary])), '');
  }
  lines.push('Options:');
  const rows: [string, string][] = Object.entries(definition.options).map(([name, spec]) => {
    const notes: string[] = [];
    if (spec.required) notes.push('required');
    // When the value has a name, the accepted values are listed here instead.
    if (spec.choices && spec.valueName) notes.push(`one of: ${spec.choices.join(', ')}`);
    if (spec.default !== undefined) notes.push(`default: ${String(spec.default)}`);
    if (spec.min !== undefined) notes.push(`at least ${spec.min}`);
    if (spec.max !== undefined) notes.push(`at most ${spec.max}`);
    if (spec.multiple) notes.push('repeatable');
    return [
      optionUsage(name, spec),
      notes.length > 0 ? `${spec.description} (${notes.join('; ')})` : spec.description,
    ];
  });
  rows.push(['--json', 'Print exactly one JSON result document on stdout; progress goes to stderr.']);
  rows.push(['-h, --help', 'Show this help.']);
  for (const p of positionalSpecs) rows.push([p.name, p.description]);
  if (positionalSpecs.length > 0)
    rows.push(['--', 'End the options: every word after it is taken as it is.']);
  lines.push(...renderTable(rows));
  const codes = { ...definition.errorCodes };
  for (const [code, meaning] of Object.entries(RUNTIME_CODES))
    if (!Object.hasOwn(codes, code)) codes[code] = meaning;
  lines.push('', 'Error codes:', ...renderTable(Object.entries(codes)));
  lines.push('', 'Exit status: 0 success, 1 failure, 2 usage error, 130 interrupted (Ctrl-C).');
  return `${lines.join('\n')}\n`;
}
