// Mutation testing of verdict's pure core (not run in CI; see docs/design.md, "Development").
// StrykerJS 9 is the line that still runs on Node 20; its Vitest runner works with Vitest 4.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: [
    'src/json/**/*.ts',
    'src/contract/**/*.ts',
    'src/mcp/**/*.ts',
    'src/evidence/**/*.ts',
    '!src/**/*.test.ts',
    '!src/**/index.ts',
    // The SDK adapter and server start processes and sockets: their tests drive the built CLI, not the source.
    '!src/mcp/server/**',
  ],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants) rerun every test and take most of the time on a busy machine.
  ignoreStatic: true,
  // Stryker rewrites tsconfig.json with the TypeScript compiler API, which TypeScript 7 no longer ships; Vitest
  // does not read tsconfig.json, so Stryker is pointed at a file that does not exist and leaves it alone.
  tsconfigFile: 'tsconfig.stryker-none.json',
  checkers: [],
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: '.tmp/mutation/index.html' },
  tempDirName: '.tmp/stryker',
  cleanTempDir: 'always',
};
