/** Jest on ESM TypeScript: the README, "Running the tests", and ARCHITECTURE.md. Type errors are caught by `npm run typecheck`. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
  // Nothing keeps a worker alive at the end (its 'exit' event fires within 1 ms of jest's end
  // message); what takes time is giving back its memory. Each ESM test file's modules live in a
  // VM context of their own, so a worker that ran half the suite held ~2 GB, and returning that
  // to the kernel took longer than jest's 500 ms on a busy machine: jest then killed it and
  // printed "A worker process has failed to exit gracefully". A worker above 1 GB after a test
  // file is replaced by a fresh one (a second or so), so none ends holding more than that, and
  // it gets 5 s to exit.
  workerIdleMemoryLimit: '1GB',
  workerGracefulExitTimeout: 5000,
};
