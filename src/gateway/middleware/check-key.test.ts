import { describe, expect, test } from 'vitest';
import { createKeyCheck, offeredKey } from './check-key.js';

/** A header reader over a plain record, as Hono's `c.req.header` reads lower-cased names. */
function headers(values: Record<string, string>): (name: string) => string | undefined {
  return (name) => values[name];
}

describe('offeredKey', () => {
  test('reads a bearer token whatever the scheme case', () => {
    expect(offeredKey(headers({ authorization: 'Bearer first-gateway-key-0001' }))).toBe(
      'first-gateway-key-0001',
    );
    expect(offeredKey(headers({ authorization: 'bearer second-gateway-key-002' }))).toBe(
      'second-gateway-key-002',
    );
    expect(offeredKey(headers({ authorization: 'Bearer\tsecond-gateway-key-002 ' }))).toBe(
      'second-gateway-key-002',
    );
  });

  test('reads x-api-key, then api-key, when there is no Authorization header', () => {
    expect(offeredKey(headers({ 'x-api-key': 'anthropic-style-key' }))).toBe('anthropic-style-key');
    expect(offeredKey(headers({ 'api-key': ' azure-style-key ' }))).toBe('azure-style-key');
    expect(offeredKey(headers({ 'x-api-key': 'first', 'api-key': 'second' }))).toBe('first');
  });

  test('offers no key for a missing or differently framed one', () => {
    for (const values of [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: 'Basic first-gateway-key-0001' },
      { authorization: 'first-gateway-key-0001' },
      { authorization: 'Bearer first-gateway-key-0001 extra' },
      { 'x-api-key': '' },
      { 'x-api-key': 'two words' },
      // The first carrier present decides: a Basic header is not rescued by an x-api-key beside it.
      { authorization: 'Basic abc', 'x-api-key': 'first-gateway-key-0001' },
    ]) {
      expect(offeredKey(headers(values)), JSON.stringify(values)).toBeUndefined();
    }
  });
});

describe('createKeyCheck', () => {
  const check = createKeyCheck(['first-gateway-key-0001', 'second-gateway-key-002']);

  test('accepts any configured key', async () => {
    expect(await check('first-gateway-key-0001')).toBe(true);
    expect(await check('second-gateway-key-002')).toBe(true);
  });

  test('refuses a missing, wrong or partial key', async () => {
    for (const offered of [
      undefined,
      '',
      'wrong-gateway-key-0000',
      'first-gateway-key-000',
      'first-gateway-key-00011',
      'Bearer first-gateway-key-0001',
    ]) {
      expect(await check(offered), String(offered)).toBe(false);
    }
  });

  test('with no keys configured, nothing is accepted', async () => {
    expect(await createKeyCheck([])('anything-at-all-here')).toBe(false);
  });
});
