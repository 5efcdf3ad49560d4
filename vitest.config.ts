import { defineConfig } from 'vitest/config';

// CI asks for a JSON report as well (VITEST_JSON_REPORT=path) to print "N passed, N failed".
const jsonReport = process.env.VITEST_JSON_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Generous: on a shared, overloaded machine (load 30 on 2 cores) a node start-up takes seconds,
    // and a timeout is then not a finding. Real hangs still fail.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Child-process tests (store faults, e2e) compete for 2 cores: keep parallelism modest.
    maxWorkers: 2,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
});
