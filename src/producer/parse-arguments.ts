import { parseArgs } from 'node:util';
import { suggestClosest } from './suggest-closest.js';
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

type Converted = { ok: true; value: unknown } | { ok: false; message: string };

const INTEGER = /^[+-]?[0-9]+$/;
// A decimal literal as people type it: no hex, no empty string, no "Infinity".
const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** Checks one option value against its spec: choices, integer or number syntax, and bounds. */
function convert(name: string, spec: OptionSpec, raw: string): Converted {
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
  const kind = spec.type === 'integer' ? 'an integer' : 'a number';
  if (!pattern.test(raw)) {
    return { ok: false, message: `--${name} must be ${kind}; got ${JSON.stringify(raw)}.` };
  }
  const value = Number(raw);
  // Bounds first: a well-formed value too large to represent (1e999, 20 digits) is out of range, not malformed.
  if (spec.min !== undefined && value < spec.min) {
    return { ok: false, message: `--${name} must be at least ${spec.min}; got ${raw}.` };
  }
  if (spec.max !== undefined && value > spec.max) {
    return { ok: false, message: `--${name} must be at most ${spec.max}; got ${raw}.` };
  }
  if (!Number.isFinite(value) || (spec.type === 'integer' && !Number.isSafeInteger(value))) {
    const limit = spec.type === 'integer' ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
    return {
      ok: false,
      message: `--${name} must be ${kind} no larger than ${limit} in magnitude; got ${raw}.`,
    };
  }
  return { ok: true, value };
}

/** One option occurrence as `node:util` `parseArgs` tokenizes it. */
interface OptionToken {
  name: string;
  rawName: string;
  value?: string | undefined;
  inlineValue?: boolean | undefined;
}

/**
 * Parses command-line arguments against option specs: `--name value`, `--name=value`, `-n value`, boolean
 * flags, repeated options, `-` as a positional (standard input), and `--` ending the options.
 * `--json` and `--help`/`-h` are understood for every command. `node:util` `parseArgs` splits the words;
 * this adds what it leaves out: unknown options, missing values, choices, numbers and their bounds, required
 * options and positionals (every one of them a usage error, exit 2).
 */
export function parseArguments(
  argv: readonly string[],
  specs: OptionSpecs,
  positionalSpecs: readonly PositionalSpec[] = [],
): ParsedArguments {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const type = spec.type === 'boolean' ? 'boolean' : 'string';
    config[name] = spec.short ? { type, short: spec.short } : { type };
  }
  config.json = { type: 'boolean' };
  config.help = { type: 'boolean', short: 'h' };
  const { tokens } = parseArgs({
    args: [...argv],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });

  const options: Record<string, unknown> = {};
  const positionals: string[] = [];
  let json = false;
  let help = false;
  let error: string | undefined;

  /** Records one option; returns why it is a usage error, if it is one. */
  const take = (token: OptionToken): string | undefined => {
    const short = !token.rawName.startsWith('--');
    const spec = Object.hasOwn(specs, token.name) ? specs[token.name] : undefined;
    if (spec === undefined || (short && spec.short !== token.rawName.slice(1))) {
      if (short) return `Unknown option ${token.rawName}.`;
      const closest = suggestClosest(token.name, [...Object.keys(specs), 'json', 'help']);
      return `Unknown option --${token.name}.${closest === undefined ? '' : ` Did you mean \`--${closest}\`?`}`;
    }
    const name = token.name;
    if (spec.type === 'boolean') {
      if (token.value !== undefined && token.value !== 'true' && token.value !== 'false') {
        return `--${name} is a flag; it takes no value (or =true / =false).`;
      }
      options[name] = token.value !== 'false';
      return undefined;
    }
    // parseArgs takes the next word as the value even when it is another option: that is a missing value.
    const raw = token.value;
    if (raw === undefined || (token.inlineValue === false && raw.startsWith('--') && raw.length > 2)) {
      json ||= raw === '--json';
      help ||= raw === '--help';
      return `--${name} needs a value.`;
    }
    const converted = convert(name, spec, raw);
    if (!converted.ok) return converted.message;
    if (spec.multiple) {
      const list = (options[name] as unknown[] | undefined) ?? [];
      list.push(converted.value);
      options[name] = list;
    } else if (Object.hasOwn(options, name)) {
      return `--${name} was given more than once.`;
    } else {
      options[name] = converted.value;
    }
    return undefined;
  };

  // Every word after `--` comes back as a positional token. After the first problem only --json and --help
  // still count, so the usage error obeys them.
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    else if (token.kind !== 'option') continue;
    else if (token.name === 'json') json = true;
    else if (token.name === 'help') help = true;
    else error ??= take(token);
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
