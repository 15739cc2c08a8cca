import { describe, expect, test } from 'vitest';
import { createKeyCheck } from './check-key.js';

describe('createKeyCheck', () => {
  const check = createKeyCheck(['first-gateway-key-0001', 'second-gateway-key-002']);

  test('accepts any configured key as a bearer token, whatever the scheme case', async () => {
    expect(await check('Bearer first-gateway-key-0001')).toBe(true);
    expect(await check('bearer second-gateway-key-002')).toBe(true);
    expect(await check('Bearer\tsecond-gateway-key-002 ')).toBe(true);
  });

  test('refuses a missing, wrong, partial or differently framed key', async () => {
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer wrong-gateway-key-0000',
      'Bearer first-gateway-key-000',
      'Bearer first-gateway-key-00011',
      'Basic first-gateway-key-0001',
      'first-gateway-key-0001',
      'Bearer first-gateway-key-0001 extra',
    ]) {
      expect(await check(header), String(header)).toBe(false);
    }
  });

  test('with no keys configured, nothing is accepted', async () => {
    expect(await createKeyCheck([])('Bearer anything-at-all-here')).toBe(false);
  });
});
