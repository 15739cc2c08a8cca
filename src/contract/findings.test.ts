import { describe, expect, test } from 'vitest';
import {
  describeReadError,
  duplicateMemberFinding,
  formatFinding,
  omitUndefined,
  pointerOf,
  readErrorFromThrown,
} from './findings.js';

describe('duplicateMemberFinding', () => {
  test('points at the object and names the key', () => {
    expect(duplicateMemberFinding({ path: '/meta', key: 'a/b' })).toEqual({
      code: 'duplicate_member',
      path: '/meta',
      message: 'The object at /meta names the member "a/b" more than once.',
    });
    expect(duplicateMemberFinding({ path: '', key: 'x' }, 'tool_definition_duplicate_member')).toEqual({
      code: 'tool_definition_duplicate_member',
      path: '',
      message: 'The root object names the member "x" more than once.',
    });
  });
});

describe('formatFinding', () => {
  test('starts with the code and names the root as (root)', () => {
    expect(formatFinding({ code: 'not_an_object', path: '', message: 'No.' })).toBe(
      'not_an_object at (root): No.',
    );
    expect(formatFinding({ code: 'message_invalid', path: '/message', message: 'No.' })).toBe(
      'message_invalid at /message: No.',
    );
  });
});

describe('pointerOf', () => {
  test('escapes ~ before / so that the tokens read back unchanged', () => {
    expect(pointerOf('a~/b', 0, '~1')).toBe('/a~0~1b/0/~01');
    expect(pointerOf()).toBe('');
  });
});

describe('readErrorFromThrown', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });
  test('maps a missing file to not_found and everything else to unreadable', () => {
    expect(readErrorFromThrown(errno('ENOENT'), 'a.json')).toEqual({
      reason: 'not_found',
      message: 'a.json does not exist.',
    });
    expect(readErrorFromThrown(errno('ENOTDIR'), 'a.json').reason).toBe('not_found');
    expect(readErrorFromThrown(errno('EISDIR'), 'dir')).toEqual({
      reason: 'unreadable',
      message: 'dir is a directory, not a file.',
    });
    expect(readErrorFromThrown(errno('EACCES'), 'a.json').message).toBe(
      'a.json could not be read: permission denied.',
    );
    expect(readErrorFromThrown('odd', 'a.json')).toEqual({
      reason: 'unreadable',
      message: 'a.json could not be read: odd.',
    });
  });
  test('describes the error with its position when known', () => {
    expect(describeReadError({ reason: 'syntax', message: 'Unexpected x.', line: 2, column: 5 })).toBe(
      'syntax: Unexpected x. (line 2, column 5)',
    );
  });
});

describe('omitUndefined', () => {
  test('drops undefined members, keeps null and keeps __proto__ an ordinary member', () => {
    const copy = omitUndefined(
      JSON.parse('{"a":null,"__proto__":{"polluted":true}}') as Record<string, unknown>,
    );
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(omitUndefined({ a: 1, b: undefined, c: null }))).toEqual(['a', 'c']);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy.a).toBeNull();
  });
});
