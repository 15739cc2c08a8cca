import type { ResultContract } from '../contract/types.js';
import type { CommandIo, OutputStream, RenderContext, Style } from './types.js';

export type { Style } from './types.js';

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** Colours only on a terminal, and never when `NO_COLOR` is set to a non-empty value (no-color.org). */
export function styleFor(stream: OutputStream, env: CommandIo['env']): Style {
  const colour = stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
  if (!colour) return { ok: plain, bad: plain, warn: plain, dim: plain, bold: plain };
  return { ok: wrap(32, 39), bad: wrap(31, 39), warn: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

/** Line width for people when stdout is not a terminal (a file, a pipe, a CI log) and `COLUMNS` is not set. */
export const DEFAULT_WIDTH = 120;

/** The width to fit: the terminal's, else `COLUMNS`, else {@link DEFAULT_WIDTH}; never below 40. */
export function widthFor(stream: OutputStream, env: CommandIo['env']): number {
  const columns = stream.isTTY === true && stream.columns ? stream.columns : Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? Math.max(40, columns) : DEFAULT_WIDTH;
}

/** A rendering context with no recorded places, for renderers used outside `runCommand`. */
export function renderContextFor(stream: OutputStream, env: CommandIo['env']): RenderContext {
  return { style: styleFor(stream, env), width: widthFor(stream, env), placeOf: () => undefined };
}

/** Columns one character takes on a terminal: 2 for East Asian wide and emoji, 0 for combining marks. */
function charWidth(code: number): number {
  if ((code >= 0x0300 && code <= 0x036f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

/** Columns a text takes on a terminal (see {@link charWidth}). */
function widthOf(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0) ?? 0);
  return width;
}

/** `text` cut to at most `width` columns, ending in `…` when it was cut. */
export function truncate(text: string, width: number): string {
  if (widthOf(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0) ?? 0);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** Text before every line. Default: two spaces. */
  indent?: string;
  /** Widest line allowed, in characters: columns are cut with `…`, the last first, to fit. Default: none. */
  width?: number;
  /** Columns whose cells are aligned to the right (numbers), by index. */
  alignRight?: readonly number[];
  /** A heading row, styled with `heading` and never cut shorter than its words. */
  header?: readonly string[];
  /** Style of the heading row. */
  heading?: (text: string) => string;
}

/**
 * Narrows columns until `widths` add up to at most `room`: the last column first (the widest by the order
 * {@link renderRecords} chooses), then the ones before it, none below its floor.
 */
function shrinkToFit(widths: readonly number[], room: number, floors: readonly number[]): number[] {
  const out = [...widths];
  let excess = out.reduce((sum, w) => sum + w, 0) - room;
  for (let k = out.length - 1; k >= 0 && excess > 0; k--) {
    const cut = Math.min(excess, Math.max(0, (out[k] ?? 0) - (floors[k] ?? 0)));
    out[k] = (out[k] ?? 0) - cut;
    excess -= cut;
  }
  return out;
}

/**
 * Lays rows out as aligned columns separated by two spaces. With a `width`, columns are cut (with `…`), the
 * last first, until every line fits; the last column is never padded.
 */
export function renderTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  const indent = options.indent ?? '  ';
  const header = options.header;
  const all = header === undefined ? rows : [header, ...rows];
  const columns = Math.max(0, ...all.map((row) => row.length));
  const natural = Array.from({ length: columns }, (_, column) =>
    Math.max(0, ...all.map((row) => widthOf(row[column] ?? ''))),
  );
  const floors = natural.map((w, column) => Math.min(w, Math.max(8, widthOf(header?.[column] ?? ''))));
  const room = options.width === undefined ? Number.POSITIVE_INFINITY : options.width - indent.length;
  const widths = shrinkToFit(natural, room - 2 * Math.max(0, columns - 1), floors);
  const right = new Set(options.alignRight ?? []);
  const line = (row: readonly string[], style: (text: string) => string) =>
    `${indent}${row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        const text = truncate(cell, width);
        const pad = ' '.repeat(Math.max(0, width - widthOf(text)));
        if (right.has(column)) return pad + text;
        return column === row.length - 1 ? text : text + pad;
      })
      .map(style)
      .join('  ')}`.trimEnd();
  const lines = rows.map((row) => line(row, plain));
  if (header !== undefined) lines.unshift(line(header, options.heading ?? plain));
  return lines;
}

/** A plain JSON object (not an array, not null). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One cell or one-line value: strings as they are, lists of scalars space-separated, other values as JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => !isRecord(item) && !Array.isArray(item))) {
    return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(' ');
  }
  return JSON.stringify(value) ?? String(value);
}

/** Options of {@link renderRecords}. */
export interface RecordsOptions {
  /** The columns to show, in order. Default: every member, in first-seen order, the widest last. */
  columns?: readonly string[];
  /** Text before every line. Default: four spaces. */
  indent?: string;
}

/**
 * An array of records as a table with a heading row: numbers aligned right, the table cut to the width. By
 * default the widest column goes last, so what is cut first is the long text, not the short facts.
 */
export function renderRecords(
  records: readonly Record<string, unknown>[],
  context: RenderContext,
  options: RecordsOptions = {},
): string[] {
  let columns = options.columns;
  if (columns === undefined) {
    const seen: string[] = [];
    for (const record of records)
      for (const key of Object.keys(record)) if (!seen.includes(key)) seen.push(key);
    const widest = (key: string) => Math.max(...records.map((record) => widthOf(formatValue(record[key]))));
    const last = seen.reduce<string | undefined>(
      (best, key) => (best === undefined || widest(key) > widest(best) ? key : best),
      undefined,
    );
    columns = last === undefined ? seen : [...seen.filter((key) => key !== last), last];
  }
  const rows = records.map((record) => columns.map((key) => formatValue(record[key])));
  const alignRight = columns.flatMap((key, index) =>
    records.some((record) => typeof record[key] === 'number') &&
    records.every((record) => record[key] === undefined || typeof record[key] === 'number')
      ? [index]
      : [],
  );
  return renderTable(rows, {
    indent: options.indent ?? '    ',
    width: context.width,
    alignRight,
    header: columns,
    heading: context.style.dim,
  });
}

/** Lines of a multi-line text shown to people: at most this many, then how many more there are. */
export const MAX_TEXT_LINES = 20;

/** The lines of one member `key: value` for people, nested objects indented, arrays of records as tables. */
export function renderMember(
  key: string,
  value: unknown,
  context: RenderContext,
  indent = '  ',
  columns?: readonly string[],
): string[] {
  const label = context.style.dim(`${key}:`);
  if (Array.isArray(value) && value.length > 0 && value.every(isRecord)) {
    const heading = `${indent}${context.style.dim(`${key} (${value.length}):`)}`;
    const options = columns === undefined ? { indent: `${indent}  ` } : { indent: `${indent}  `, columns };
    return [heading, ...renderRecords(value, context, options)];
  }
  if (Array.isArray(value) && value.length === 0) return [`${indent}${label} ${context.style.dim('(none)')}`];
  if (isRecord(value) && Object.keys(value).length > 0 && indent.length < 6) {
    return [
      `${indent}${label}`,
      ...Object.entries(value).flatMap(([inner, member]) =>
        member === undefined ? [] : renderMember(inner, member, context, `${indent}  `),
      ),
    ];
  }
  if (typeof value === 'string' && value.includes('\n')) {
    const lines = value.replace(/\n$/, '').split('\n');
    const shown = lines.slice(0, MAX_TEXT_LINES).map((line) => `${indent}  ${line}`);
    if (lines.length > MAX_TEXT_LINES) {
      shown.push(`${indent}  ${context.style.dim(`… ${lines.length - MAX_TEXT_LINES} more lines`)}`);
    }
    return [`${indent}${label}`, ...shown];
  }
  const text = formatValue(value);
  // Long JSON is cut to the width; a long string (a path, a digest) is shown whole.
  const fitted = typeof value === 'string' ? text : truncate(text, context.width - widthOf(indent + key) - 2);
  return [`${indent}${label} ${fitted}`];
}

/** The first line of a result: a mark and the message, with the error code of a failure. */
export function renderHeadline(result: ResultContract, style: Style): string {
  if (result.success) return `${style.ok('✔')} ${result.message}`;
  const code = result.error_code === undefined ? '' : ` ${style.dim(`[${result.error_code}]`)}`;
  return `${style.bad('✖')} ${result.message}${code}`;
}

/** The `error` line of a failure, unless the message already says it (whatever the case and final stop). */
export function renderErrorLine(result: ResultContract, style: Style): string[] {
  if (result.success || result.error === undefined) return [];
  const said = result.error.replace(/\.$/, '').toLowerCase();
  if (result.message.toLowerCase().includes(said)) return [];
  return [`  ${style.bad('error:')} ${result.error}`];
}

/** The result's warnings, one line each. */
export function renderWarnings(
  warnings: readonly unknown[] | undefined,
  style: Style,
  indent = '  ',
): string[] {
  return (warnings ?? []).map((warning) => `${indent}${style.warn('!')} ${formatValue(warning)}`);
}

const CORE = new Set(['success', 'message', 'error', 'error_code', 'details', 'warnings', 'meta']);

/** One violation as `{ code, path, message }`, the shape the contract's validators report. */
interface ListedViolation {
  code: unknown;
  path: unknown;
  message: unknown;
}

function isViolation(value: unknown): value is ListedViolation {
  return isRecord(value) && typeof value.code === 'string' && typeof value.message === 'string';
}

/** Violations as `code at path: message` lines (a string violation is shown as it is). */
export function renderViolations(list: readonly unknown[], style: Style, indent = '  '): string[] {
  return list.map((item) => {
    if (!isViolation(item)) return `${indent}${style.bad('✖')} ${formatValue(item)}`;
    const where = typeof item.path === 'string' && item.path !== '' ? item.path : '(root)';
    return `${indent}${style.bad('✖')} ${String(item.code)} ${style.dim(`at ${where}`)}: ${String(item.message)}`;
  });
}

/** How {@link renderResult} may be tailored by a command that keeps the default layout. */
export interface RenderResultOptions {
  /** For members that are arrays of records: the columns of their table, by member name. */
  columns?: Readonly<Record<string, readonly string[]>>;
  /** Members (of the result or of `details`) not shown. */
  omit?: readonly string[];
}

/**
 * The default rendering of a result for a person: the outcome and message, the error when the message does
 * not already say it, every domain member (nested objects indented, arrays of records as tables fitted to the
 * width), violations and warnings. Commands with their own evidence give a `render` of their own; the
 * `--json` document is the machine's view, this is only a reading aid.
 */
export function renderResult(
  result: ResultContract,
  context: RenderContext | Style,
  options: RenderResultOptions = {},
): string {
  const ctx: RenderContext =
    'style' in context ? context : { style: context, width: DEFAULT_WIDTH, placeOf: () => undefined };
  const { style } = ctx;
  const lines = [renderHeadline(result, style)];
  const violations = Array.isArray(result.details?.violations) ? result.details.violations : [];
  // A failure that lists its violations says its error there: it is not repeated above the list.
  if (violations.length === 0) lines.push(...renderErrorLine(result, style));
  const omit = new Set(options.omit);
  const members = [
    ...Object.entries(result).filter(([key]) => !CORE.has(key)),
    ...Object.entries(result.details ?? {}).filter(([key]) => key !== 'violations'),
  ];
  for (const [key, value] of members) {
    if (omit.has(key) || value === undefined) continue;
    lines.push(...renderMember(key, value, ctx, '  ', options.columns?.[key]));
  }
  lines.push(...renderViolations(violations, style));
  lines.push(...renderWarnings(result.warnings, style));
  return `${lines.join('\n')}\n`;
}

/** One checked item of a list for people: whether it passed, what it is, and what to say about it. */
export interface ChecklistItem {
  /** True when the item got what it should. */
  passed: boolean;
  /** What was checked (a file, a case). */
  label: string;
  /** A short remark after the label. */
  note?: string;
  /** Lines under the item (its violations), indented. */
  lines?: readonly string[];
}

/** A list of checked items, `✔ label  note` or `✖ label  note`, each followed by its own lines. */
export function renderChecklist(items: readonly ChecklistItem[], style: Style, indent = ''): string[] {
  return items.flatMap((item) => [
    `${indent}${item.passed ? style.ok('✔') : style.bad('✖')} ${item.label}${item.note ? `  ${style.dim(item.note)}` : ''}`,
    ...(item.lines ?? []).map((line) => `${indent}    ${line}`),
  ]);
}
