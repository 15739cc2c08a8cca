import { defineConfig } from 'vitest/config';

// The tests that import verdict's source directly: what mutation testing can see. Tests that drive the built
// CLI (test/cli, test/mcp, test/action, test/package) run dist/, which a mutant never reaches. Property-based
// tests (thousands of generated cases each) and the size and depth stress tests would run again for almost
// every mutant of the reader and the validators, which a shared two-core machine cannot finish; they run in
// `npm test`, and the mutation score is reported without them.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    exclude: ['src/**/*.property.test.ts'],
    testNamePattern: /^(?!.*(50 MB|1,000,000 levels|100,000 unclosed levels|nested 20,000 deep))/,
    testTimeout: 60_000,
  },
});
