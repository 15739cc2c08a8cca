import { describe, expect, test } from 'vitest';
import { StreamParts } from '../../src/unified/providers/google-stream-parts.js';

function fold(parts: unknown[]): unknown[] {
  const folded = new StreamParts();
  for (const part of parts) folded.append(part);
  return folded.finish();
}

describe('StreamParts', () => {
  test('keeps complete calls and text as they are', () => {
    const call = { functionCall: { name: 'f', args: { a: 1 } } };
    expect(fold([{ text: 'a' }, call, { text: 'b' }])).toEqual([{ text: 'a' }, call, { text: 'b' }]);
  });

  test('reads bracketed and quoted JSON paths, and a path segment named __proto__ stays data', () => {
    const [part] = fold([
      { functionCall: { name: 'f', willContinue: true } },
      {
        functionCall: {
          partialArgs: [
            { jsonPath: "$['a b'].c[0]", numberValue: 2 },
            { jsonPath: "$['a b'].c[1]", numberValue: 3 },
            { jsonPath: '$["x"]', stringValue: 'y' },
            { jsonPath: '$.__proto__.polluted', boolValue: true },
          ],
          willContinue: true,
        },
      },
      { functionCall: {} },
    ]) as [{ functionCall: { args: Record<string, unknown> } }];
    expect(part.functionCall.args['a b']).toEqual({ c: [2, 3] });
    expect(part.functionCall.args.x).toBe('y');
    expect(Object.hasOwn(part.functionCall.args, '__proto__')).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  test('a string piece replaces a finished value and extends one that said willContinue', () => {
    const [part] = fold([
      { functionCall: { name: 'f', willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.s', stringValue: 'one' }], willContinue: true } },
      {
        functionCall: {
          partialArgs: [{ jsonPath: '$.s', stringValue: 'two', willContinue: true }],
          willContinue: true,
        },
      },
      { functionCall: { partialArgs: [{ jsonPath: '$.s', stringValue: '-three' }] } },
    ]) as [{ functionCall: { args: Record<string, unknown> } }];
    expect(part.functionCall.args.s).toBe('two-three');
  });

  test('rejects arguments before a name, a second call while one is open, and a path that is not JSONPath', () => {
    expect(() =>
      fold([{ functionCall: { partialArgs: [{ jsonPath: '$.a', stringValue: 'x' }], willContinue: true } }]),
    ).toThrow(/before the call named/);
    expect(() =>
      fold([
        { functionCall: { name: 'f', willContinue: true } },
        { functionCall: { name: 'g', willContinue: true } },
      ]),
    ).toThrow(/another was still streaming/);
    expect(() =>
      fold([
        {
          functionCall: {
            name: 'f',
            willContinue: true,
            partialArgs: [{ jsonPath: 'a.b', stringValue: 'x' }],
          },
        },
      ]),
    ).toThrow(/not a JSON path/);
  });

  test('an array item past the end of its array is refused, so a short piece cannot make a long sparse array', () => {
    const call = (jsonPath: string) => [
      { functionCall: { name: 'f', willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.a[0]', stringValue: 'x' }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath, stringValue: 'y' }] } },
    ];
    expect(fold(call('$.a[1]'))).toEqual([{ functionCall: { name: 'f', args: { a: ['x', 'y'] } } }]);
    expect(fold(call('$.a[0]'))).toEqual([{ functionCall: { name: 'f', args: { a: ['y'] } } }]);
    for (const path of ['$.a[2]', '$.a[50000000]', '$.a[4294967294]', '$.b[1]'])
      expect(() => fold(call(path))).toThrow(/sets item/);
  });

  test('joins audio chunks as bytes, not as base64 text, and leaves images apart', () => {
    const audio = (data: string) => ({ inlineData: { mimeType: 'audio/L16;codec=pcm;rate=24000', data } });
    expect(fold([audio('AQ=='), audio('AgM=')])).toEqual([audio('AQID')]);
    const image = { inlineData: { mimeType: 'image/png', data: 'AA==' } };
    expect(fold([image, image])).toEqual([image, image]);
  });
});
