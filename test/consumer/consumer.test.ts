import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/ensure-build.js';
import { installPackedConsumer, type PackedConsumer } from './packed-package.js';

// A consumer of the published tarball: its declarations in two TypeScript setups, browser bundles of the
// runtime-neutral entries, require() from CommonJS, the schema subpaths, and attw's ESM-only profile.

const BIN = join(ROOT, 'node_modules', '.bin');

/** The entries that run anywhere: their declarations must need neither Node's types nor the DOM's. */
const RUNTIME_NEUTRAL = [
  'verdict',
  'verdict/mcp',
  'verdict/evidence',
  'verdict/unified',
  'verdict/unified/ai-sdk',
];

/** Code that touches each runtime-neutral entry, so its declarations are loaded and checked. */
const CONSUMER_TS = `import { ok, validateResult } from 'verdict';
import { classifyOutputSchema, resultOutputSchema, toCallToolResult, validateMcpResult } from 'verdict/mcp';
import { createReceipt, sha256Hex } from 'verdict/evidence';
import { normalizeResponse, toHttpResponse, validateUnifiedOutput } from 'verdict/unified';
import * as aiSdk from 'verdict/unified/ai-sdk';

const result = ok('Done.');
export const checks = [
  validateResult(result).valid,
  classifyOutputSchema(resultOutputSchema()).mode,
  validateMcpResult(toCallToolResult(result, { revision: '2025-11-25' }), { revision: '2025-11-25' }).success,
  createReceipt({ profile: 'core', success: { file: 's', bytes: new Uint8Array() }, failure: { file: 'f', bytes: new Uint8Array() } }).success,
  sha256Hex(new Uint8Array()),
  validateUnifiedOutput(normalizeResponse({ format: 'openai.chat', status: 200, body: '{}' })).ok,
  toHttpResponse(normalizeResponse({ format: 'openai.chat', status: 200, body: '{}' }), { headers: { 'x-a': 'b' } }).status,
  Object.keys(aiSdk).length,
];
`;

/** The two consumers of the declarations: a server without the DOM, a browser without Node's types. */
const SETUPS = {
  server: {
    target: 'es2022',
    lib: ['es2022'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  },
  browser: {
    target: 'es2022',
    lib: ['es2022', 'dom', 'dom.iterable'],
    module: 'esnext',
    moduleResolution: 'bundler',
    types: [],
  },
} as const;

let consumer: PackedConsumer;

beforeAll(() => {
  consumer = installPackedConsumer();
  writeFileSync(join(consumer.dir, 'consumer.ts'), CONSUMER_TS);
}, 120_000);

afterAll(() => consumer?.remove());

function run(command: string, args: string[]) {
  const done = spawnSync(command, args, { cwd: consumer.dir, encoding: 'utf8' });
  return { status: done.status, output: `${done.stdout}${done.stderr}` };
}

describe('the packed package in a consumer project', () => {
  test.each(Object.keys(SETUPS) as (keyof typeof SETUPS)[])(
    'the runtime-neutral declarations type-check in a %s setup, library declarations included',
    (setup) => {
      const config = {
        compilerOptions: { ...SETUPS[setup], strict: true, noEmit: true, skipLibCheck: false },
        files: ['consumer.ts'],
      };
      writeFileSync(join(consumer.dir, `tsconfig.${setup}.json`), JSON.stringify(config, null, 2));
      const tsc = run(join(BIN, 'tsc'), ['-p', `tsconfig.${setup}.json`]);
      expect(tsc.output).toBe('');
      expect(tsc.status).toBe(0);
    },
  );

  test.each(RUNTIME_NEUTRAL)('%s bundles for the browser', (entry) => {
    const file = join(consumer.dir, `bundle-${entry.replaceAll('/', '-')}.js`);
    writeFileSync(file, `export * from '${entry}';\n`);
    const bundle = run(join(BIN, 'esbuild'), [
      file,
      '--bundle',
      '--platform=browser',
      '--format=esm',
      '--log-level=error',
      '--outfile=/dev/null',
    ]);
    expect(bundle.output).toBe('');
    expect(bundle.status).toBe(0);
  });

  test('CommonJS code can require() the root on every Node that engines names', () => {
    const script = `const v = require('verdict'); process.stdout.write(String(v.validateResult(v.ok('Done.')).valid));`;
    const required = run(process.execPath, ['--input-type=commonjs', '-e', script]);
    expect(required.output).toBe('true');
  });

  test('the schemas resolve by the short names the docs use and by their file names', () => {
    const script = `
      const names = ['result-contract-v1', 'result-contract-conformance-receipt-v1', 'unified-output-v1'];
      const ids = [];
      for (const name of names) {
        const short = (await import('verdict/schemas/' + name, { with: { type: 'json' } })).default;
        const long = (await import('verdict/schemas/' + name + '.schema.json', { with: { type: 'json' } })).default;
        if (short.$id !== long.$id) throw new Error(name);
        ids.push(short.$id);
      }
      process.stdout.write(JSON.stringify(ids));`;
    const imported = run(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(imported.output)).toEqual([
      'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json',
      'https://qzx.yumbale.com/schemas/result-contract-conformance-receipt-v1.schema.json',
      'https://verdict.dev/schemas/unified-output-v1.schema.json',
    ]);
  });

  test('@arethetypeswrong/cli finds no problem under the ESM-only profile', () => {
    const attw = run(join(BIN, 'attw'), [consumer.tarball, '--profile', 'esm-only', '--format', 'json']);
    expect(attw.status, attw.output).toBe(0);
    const { problems } = JSON.parse(attw.output) as {
      problems: Record<string, { resolutionKind: string }[]>;
    };
    // The ESM-only profile ignores node10 and require() from node16 CommonJS; nothing else may show up.
    const counted = Object.values(problems)
      .flat()
      .filter((p) => !['node10', 'node16-cjs'].includes(p.resolutionKind));
    expect(counted).toEqual([]);
  }, 60_000);
});
