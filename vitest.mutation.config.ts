import { defineConfig } from 'vitest/config';

// The tests that import verdict's source directly: what mutation testing can see. Tests that drive the built
// CLI (test/cli, test/mcp, test/action, test/package) run dist/, which a mutant never reaches.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/properties/**/*.test.ts'],
    // Reading 50 MB or a million levels through instrumented code outlasts any timeout; the other reader tests
    // cover the same code.
    testNamePattern: /^(?!.*(reads a 50 MB document|1,000,000 levels))/,
    testTimeout: 60_000,
  },
});
