import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import type { OptionSpecs } from '../producer/types.js';
import { argumentsToOptions, optionsInputSchema } from './options-input-schema.js';

const OPTIONS = {
  path: { type: 'string', description: 'File.', required: true },
  algorithm: { type: 'string', description: 'Digest.', choices: ['sha256', 'md5'], default: 'sha256' },
  limit: { type: 'integer', description: 'At most.', min: 1, max: 10 },
  ratio: { type: 'number', description: 'Ratio.' },
  hidden: { type: 'boolean', description: 'Include hidden.' },
  tag: { type: 'string', description: 'Tags.', multiple: true },
} as const satisfies OptionSpecs;

describe('optionsInputSchema', () => {
  const schema = optionsInputSchema(OPTIONS);
  const check = new Ajv2020({ strict: true }).compile(schema);

  test('types and constrains each option, requires the required ones and nothing else', () => {
    expect(schema).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File.' },
        algorithm: { type: 'string', enum: ['sha256', 'md5'], description: 'Digest.', default: 'sha256' },
        limit: { type: 'integer', minimum: 1, maximum: 10, description: 'At most.' },
        ratio: { type: 'number', description: 'Ratio.' },
        hidden: { type: 'boolean', description: 'Include hidden.' },
        tag: { type: 'array', description: 'Tags.', items: { type: 'string' } },
      },
      required: ['path'],
      additionalProperties: false,
    });
  });

  test('accepts what the command line accepts and refuses what it refuses', () => {
    expect(check({ path: 'a', algorithm: 'md5', limit: 3, ratio: 0.5, hidden: true, tag: ['x'] })).toBe(true);
    expect(check({})).toBe(false);
    expect(check({ path: 'a', algorithm: 'sha1' })).toBe(false);
    expect(check({ path: 'a', limit: 0 })).toBe(false);
    expect(check({ path: 'a', limit: 1.5 })).toBe(false);
    expect(check({ path: 'a', unknown: 1 })).toBe(false);
  });
});

describe('argumentsToOptions', () => {
  test('fills defaults and empty lists, keeps what was given', () => {
    expect(argumentsToOptions(OPTIONS, { path: 'a', limit: 2 })).toEqual({
      path: 'a',
      algorithm: 'sha256',
      limit: 2,
      tag: [],
    });
  });
});
