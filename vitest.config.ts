import { defineConfig } from 'vitest/config';

// Tests import the libraries by package name; they resolve to the built `dist/` of each
// workspace (`npm test` builds first), which is exactly what users and worker processes load.
export default defineConfig({
  test: {
    include: ['libs/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
