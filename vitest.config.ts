import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: {
      include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    // The CLI and package tests run the built code: build it first when dist/ is missing or stale.
    globalSetup: ['./test/support/ensure-build.ts'],
    // Bounds that catch a hang, not timings: a test that starts browsers, servers and CLIs on a busy two-core
    // machine (another suite beside it) may take several times its quiet duration.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
