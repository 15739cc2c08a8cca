import type { OptionSpec, OptionSpecs, PositionalSpec } from './types.js';

/** Arguments split into options and positionals, or the reason they could not be. */
export type ParsedArguments =
  | {
      ok: true;
      options: Record<string, unknown>;
      positionals: string[];
      json: boolean;
      help: boolean;
    }
  | { ok: false; message: string; json: boolean; help: boolean };

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

const INTEGER = /^[+-]?[0-9]+$/;
// A decimal literal as people type it: no hex, no empty string, no "Infinity".
const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

function convert(name: string, spec: OptionSpec, raw: string): Parsed {
  if (spec.type === 'string') {
    if (spec.choices && !spec.choices.includes(raw)) {
      return {
        ok: false,
        message: `--${name} must be one of ${spec.choices.join(', ')}; got ${JSON.stringify(raw)}.`,
      };
    }
    return { ok: true, value: raw };
  }
  const pattern = spec.type === 'integer' ? INTEGER : DECIMAL;
  const value = Number(raw);
  if (
    !pattern.test(raw) ||
    !Number.isFinite(value) ||
    (spec.type === 'integer' && !Number.isSafeInteger(value))
  ) {
    return {
      ok: false,
      message: `--${name} must be ${spec.type === 'integer' ? 'an integer' : 'a number'}; got ${JSON.stringify(raw)}.`,
    };
  }
  if (spec.min !== undefined && value < spec.min) {
    return { ok: false, message: `--${name} must be at least ${spec.min}; got ${raw}.` };
  }
  if (spec.max !== undefined && value > spec.max) {
    return { ok: false, message: `--${name} must be at most ${spec.max}; got ${raw}.` };
  }
  return { ok: true, value };
}

/**
 * Parses command-line arguments against option specs: `--name value`, `--name=value`, `-n value`, boolean
 * flags, repeated options, `-` as a positional (standard input), and `--` ending the options.
 * `--json` and `--help`/`-h` are understood for every command.
 */
export function parseArguments(
  argv: readonly string[],
  specs: OptionSpecs,
  positionalSpecs: readonly PositionalSpec[] = [],
): ParsedArguments {
  const options: Record<string, unknown> = {};
  const positionals: string[] = [];
  let json = false;
  let help = false;
  let error: string | undefined;
  const shorts = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) if (spec.short) shorts.set(spec.short, name);

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--json') {
      json = true;
      continue;
    }
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (error !== undefined) continue; // keep scanning for --json / --help only
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else {
      const long = arg.length === 2 ? shorts.get(arg.slice(1)) : undefined;
      if (long === undefined) {
        error = `Unknown option ${arg}.`;
        continue;
      }
      name = long;
    }
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (spec === undefined) {
      error = `Unknown option --${name}.`;
      continue;
    }
    let raw: string;
    if (spec.type === 'boolean') {
      if (inline !== undefined && inline !== 'true' && inline !== 'false') {
        error = `--${name} is a flag; it takes no value (or =true / =false).`;
        continue;
      }
      options[name] = inline !== 'false';
      continue;
    }
    if (inline !== undefined) {
      raw = inline;
    } else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        error = `--${name} needs a value.`;
        continue;
      }
      raw = next;
      i++;
    }
    const parsed = convert(name, spec, raw);
    if (!parsed.ok) {
      error = parsed.message;
      continue;
    }
    if (spec.multiple) {
      const list = (options[name] as unknown[] | undefined) ?? [];
      list.push(parsed.value);
      options[name] = list;
    } else if (Object.hasOwn(options, name)) {
      error = `--${name} was given more than once.`;
    } else {
      options[name] = parsed.value;
    }
  }
  if (error !== undefined) return { ok: false, message: error, json, help };

  for (const [name, spec] of Object.entries(specs)) {
    if (Object.hasOwn(options, name)) continue;
    if (spec.required) return { ok: false, message: `--${name} is required.`, json, help };
    if (spec.multiple) options[name] = [];
    else if (spec.default !== undefined) options[name] = spec.default;
  }

  const variadic = positionalSpecs.some((p) => p.variadic);
  if (!variadic && positionals.length > positionalSpecs.length) {
    const extra = positionals[positionalSpecs.length];
    return {
      ok: false,
      message:
        positionalSpecs.length === 0
          ? `Unexpected argument ${JSON.stringify(extra)}: this command takes no positional arguments.`
          : `Unexpected argument ${JSON.stringify(extra)}.`,
      json,
      help,
    };
  }
  const missing = positionalSpecs.find((p, index) => p.required && positionals.length <= index);
  if (missing) return { ok: false, message: `${missing.name} is required.`, json, help };
  return { ok: true, options, positionals, json, help };
}
