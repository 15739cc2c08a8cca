import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import * as unified from '../../src/unified/index.js';
import { importsOf, sourceFiles } from '../helpers/import-graph.js';

const SRC = join(import.meta.dirname, '..', '..', 'src', 'unified');

describe('verdict/unified', () => {
  test('no file imports a node: module, so it runs in browsers and edge runtimes', () => {
    const offenders = sourceFiles(SRC).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('node:'))
        .map((specifier) => `${relative(SRC, file)} → ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  test('imports only its own files and the contract, never the ai package', () => {
    const external = sourceFiles(SRC).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !specifier.startsWith('.'))
        .map((specifier) => `${relative(SRC, file)} → ${specifier}`),
    );
    expect(external).toEqual([]);
  });

  test('the index does not pull in the AI SDK adapter', () => {
    expect(importsOf(join(SRC, 'index.ts')).some((specifier) => specifier.includes('ai-sdk'))).toBe(false);
    expect(Object.keys(unified).some((name) => name.startsWith('fromGenerate'))).toBe(false);
  });

  test('exports the public surface by name', () => {
    for (const name of [
      'validateUnifiedOutput',
      'createUnifiedSuccess',
      'createUnifiedFailure',
      'statusForCode',
      'checkHttpCoherence',
      'traceIdFrom',
      'toHttpResponse',
      'fromHttpResponse',
      'normalizeResponse',
      'normalizeStream',
      'parseEventStream',
      'readHeaderLines',
      'UNIFIED_FORMATS',
      'UNIFIED_ERROR_CODES',
      'UNIFIED_VIOLATION_CODES',
      'UNIFIED_OUTPUT_SCHEMA_URL',
    ]) {
      expect(unified, name).toHaveProperty(name);
    }
    expect(unified.UNIFIED_FORMATS).toEqual([
      'openai.chat',
      'openai.responses',
      'openai.images',
      'openai.speech',
      'openai.transcription',
      'openai.videos',
      'anthropic.messages',
      'google.generate-content',
      'google.imagen',
      'google.veo',
      'replicate.prediction',
      'openrouter.chat',
      'openai-compatible.chat',
      'bedrock.converse',
      'openai.completions',
      'cohere.chat',
      'ollama.chat',
      'ollama.generate',
      'bedrock.invoke',
    ]);
  });
});
