import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createReceipt } from './create-receipt.js';
import { nodeSha256Hex } from './node-sha256-hex.js';
import { sha256Hex } from './sha256.js';

describe('sha256Hex', () => {
  test('gives the FIPS 180-4 digests of the empty string and "abc"', () => {
    expect(sha256Hex(new Uint8Array())).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  test('agrees with node:crypto for every byte string, across block boundaries', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const expected = createHash('sha256').update(bytes).digest('hex');
        expect(sha256Hex(bytes)).toBe(expected);
        expect(nodeSha256Hex(bytes)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('createReceipt hashing', () => {
  const success = { file: 's.json', bytes: new TextEncoder().encode('{"success":true,"message":"Done."}') };
  const failure = {
    file: 'f.json',
    bytes: new TextEncoder().encode('{"success":false,"message":"No.","error":"No."}'),
  };

  test('hashes with sha256Hex by default and with the given function otherwise', () => {
    const plain = createReceipt({ profile: 'core', success, failure });
    expect(plain.details.cases[0].sha256).toBe(nodeSha256Hex(success.bytes));
    const seen: number[] = [];
    const custom = createReceipt({
      profile: 'core',
      success,
      failure,
      sha256: (bytes) => {
        seen.push(bytes.length);
        return nodeSha256Hex(bytes);
      },
    });
    expect(seen).toEqual([success.bytes.length, failure.bytes.length]);
    expect(custom).toEqual(plain);
  });
});
