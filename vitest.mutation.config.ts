import { defineConfig } from 'vitest/config';

// The tests that import verdict's source directly: what mutation testing can see. Tests that drive the built
// CLI (test/cli, test/mcp, test/action, test/package) run dist/, which a mutant never reaches.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/properties/**/*.test.ts', 'test/unified/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
