import type { ResultContract } from '../contract/types.js';
import { INTERRUPT_SIGNALS } from './interrupt.js';
import { renderTable } from './render.js';
import type { CommandDefinition, OptionSpec, Style } from './types.js';

/** A named entry of a help list: a subcommand and its summary. */
export interface HelpEntry {
  /** The word that selects it. */
  name: string;
  /** One line saying what it does. */
  summary: string;
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

/** The signals that interrupt a run and the exit status each gives (128 + its number), from one table. */
const INTERRUPTS = Object.entries(INTERRUPT_SIGNALS).map(([name, number]) => `${128 + number} ${name}`);

/** The last line of every help: the exit statuses. */
export const EXIT_STATUS_LINE = `Exit status: 0 success, 1 failure, 2 usage error; interrupted: ${INTERRUPTS.join(', ')}.`;

/** What every command can report besides its own codes: the runtime adds these. */
const RUNTIME_CODES = {
  invalid_arguments: 'The command line is wrong (exit 2).',
  interrupted: `The run was interrupted by a signal; exit ${INTERRUPTS.join(', ')}.`,
  unexpected_error: 'The command failed in a way it does not describe (a bug); exit 1.',
} as const satisfies Record<string, string>;

/**
 * What a `--help` is generated from: a command's definition, or the declaration of a subcommand that parses its
 * own arguments (a server such as `verdict gateway`), which has no `run` and may say more.
 */
export interface HelpDefinition
  extends Pick<
    CommandDefinition,
    'name' | 'description' | 'options' | 'positionals' | 'errorCodes' | 'product'
  > {
  /** Paragraphs after the error codes (what is logged, which variables are read). */
  notes?: readonly string[];
  /** The runtime's codes this command can report; default: all of them. A server is not interrupted. */
  runtimeCodes?: readonly (keyof typeof RUNTIME_CODES)[];
  /** The exit-status line, for a command whose statuses differ from the runtime's (a server). */
  exitStatus?: string;
}

/**
 * The `--help` text of a command, generated from its definition so it cannot drift from what is parsed: the
 * choices listed are the ones the parser accepts, and the error codes are the command's own plus the
 * runtime's.
 */
export function renderHelp(
  definition: HelpDefinition,
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
  // A command whose product is another document (an envelope, a receipt) says so in its description.
  const document = definition.product ? 'JSON document (see above)' : 'JSON result document';
  rows.push(['--json', `Print exactly one ${document} on stdout; progress goes to stderr.`]);
  rows.push(['-h, --help', 'Show this help.']);
  for (const p of positionalSpecs) rows.push([p.name, p.description]);
  if (positionalSpecs.length > 0)
    rows.push(['--', 'End the options: every word after it is taken as it is.']);
  lines.push(...renderTable(rows));
  const codes: Record<string, string> = { ...definition.errorCodes };
  for (const code of definition.runtimeCodes ??
    (Object.keys(RUNTIME_CODES) as (keyof typeof RUNTIME_CODES)[]))
    if (!Object.hasOwn(codes, code)) codes[code] = RUNTIME_CODES[code];
  lines.push('', 'Error codes:', ...renderTable(Object.entries(codes)));
  for (const note of definition.notes ?? []) lines.push('', note);
  lines.push('', definition.exitStatus ?? EXIT_STATUS_LINE);
  return `${lines.join('\n')}\n`;
}
