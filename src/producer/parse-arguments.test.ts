import { describe, expect, test } from 'vitest';
import { parseArguments } from './parse-arguments.js';
import type { OptionSpecs } from './types.js';

const SPECS = {
  name: { type: 'string', description: 'A name.', short: 'n' },
  mode: { type: 'string', description: 'A mode.', choices: ['a', 'b'], default: 'a' },
  count: { type: 'integer', description: 'A count.', min: 1, max: 9 },
  ratio: { type: 'number', description: 'A ratio.' },
  tag: { type: 'string', description: 'A tag.', multiple: true },
  quiet: { type: 'boolean', description: 'Say less.' },
} as const satisfies OptionSpecs;

const POSITIONALS = [{ name: 'FILE', description: 'A file.', variadic: true }];

function parse(argv: string[]) {
  return parseArguments(argv, SPECS, POSITIONALS);
}

describe('parseArguments', () => {
  test('reads long, inline, short and repeated options, flags and defaults', () => {
    expect(
      parse(['--name', 'x', '--count=3', '-n', 'y', '--tag', 'p', '--tag=q', '--quiet', 'f.json']),
    ).toEqual({
      ok: false,
      message: '--name was given more than once.',
      json: false,
      help: false,
    });
    expect(
      parse(['-n', 'y', '--count=3', '--tag', 'p', '--tag=q', '--quiet=false', '--ratio', '-0.5', '-']),
    ).toEqual({
      ok: true,
      options: { name: 'y', count: 3, tag: ['p', 'q'], quiet: false, ratio: -0.5, mode: 'a' },
      positionals: ['-'],
      json: false,
      help: false,
    });
  });

  test('everything after -- is positional, --json included', () => {
    const parsed = parse(['--json', '--', '--name', '--json', '-h']);
    expect(parsed).toMatchObject({
      ok: true,
      json: true,
      help: false,
      positionals: ['--name', '--json', '-h'],
    });
  });

  test.each([
    [['--nope'], 'Unknown option --nope.'],
    [['-x'], 'Unknown option -x.'],
    [['-q'], 'Unknown option -q.'],
    [['--name'], '--name needs a value.'],
    [['--name', '--quiet'], '--name needs a value.'],
    [['--mode', 'c'], '--mode must be one of a, b; got "c".'],
    [['--count', '1.5'], '--count must be an integer; got "1.5".'],
    [['--count', '0'], '--count must be at least 1; got 0.'],
    [['--count', '10'], '--count must be at most 9; got 10.'],
    [['--ratio', '0x10'], '--ratio must be a number; got "0x10".'],
    [['--count', '99999999999999999999'], '--count must be at most 9; got 99999999999999999999.'],
    [['--count', '-99999999999999999999'], '--count must be at least 1; got -99999999999999999999.'],
    [
      ['--ratio', '1e999'],
      '--ratio must be a number no larger than 1.7976931348623157e+308 in magnitude; got 1e999.',
    ],
    [['--quiet=yes'], '--quiet is a flag; it takes no value (or =true / =false).'],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(parse(argv)).toMatchObject({ ok: false, message });
  });

  test('a well-formed integer beyond the safe range is out of range, not malformed', () => {
    const specs = { size: { type: 'integer', description: 'A size.' } } as const;
    expect(parseArguments(['--size', '9007199254740993'], specs)).toMatchObject({
      ok: false,
      message:
        '--size must be an integer no larger than 9007199254740991 in magnitude; got 9007199254740993.',
    });
    expect(parseArguments(['--size', '9007199254740991'], specs)).toMatchObject({
      ok: true,
      options: { size: 9007199254740991 },
    });
  });

  test('--json and --help still count after a problem, so the usage error obeys them', () => {
    expect(parse(['--nope', '--json', '-h'])).toMatchObject({ ok: false, json: true, help: true });
    expect(parse(['--name', '--json'])).toMatchObject({ ok: false, json: true });
  });

  test('checks required options and positionals', () => {
    const specs = { path: { type: 'string', description: 'A path.', required: true } } as const;
    expect(parseArguments([], specs)).toMatchObject({ ok: false, message: '--path is required.' });
    expect(parseArguments(['--path', 'p', 'extra'], specs)).toMatchObject({
      ok: false,
      message: 'Unexpected argument "extra": this command takes no positional arguments.',
    });
    const named = [{ name: 'NAME', description: 'A name.', required: true }];
    expect(parseArguments(['--path', 'p'], specs, named)).toMatchObject({
      ok: false,
      message: 'NAME is required.',
    });
  });
});
