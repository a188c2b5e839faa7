import { defineConfig } from 'vitest/config';

// Two tiers (see README, "Tests"): pure unit tests live beside the code they test;
// integration tests in test/ share one embedded PostgreSQL started once per run by
// the global setup, each test file in a database of its own.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['core/**/*.test.ts', 'jobs/**/*.test.ts', 'api/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
