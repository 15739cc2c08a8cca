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
    testTimeout: 30_000,
  },
});
