import { defineConfig } from 'vitest/config';

// CI asks for a JSON report as well (VITEST_JSON_REPORT=path) to print "N passed, N failed".
const jsonReport = process.env.VITEST_JSON_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child-process tests (store faults, e2e) compete for 2 cores: keep parallelism modest.
    maxWorkers: 2,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
});
