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
  // A worker that has run half the suite holds a heap of ~2 GB (each ESM test file's modules in
  // its own VM context) and takes more than jest's default 500 ms to exit, with no handle left
  // open (checked by listing each worker's active handles at exit): jest then kills it and
  // prints "A worker process has failed to exit gracefully". Give it the time it needs.
  workerGracefulExitTimeout: 5000,
};
