/**
 * `pnpm test:deploy` (scripts/deploy/test.sh, which prepares the Docker engine and images first): the compose
 * stack end to end, the tests under `test/deploy/`.
 */
const base = require('./jest.base.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/deploy'],
  testMatch: ['<rootDir>/test/deploy/**/*.test.ts'],
  testTimeout: 180000,
  maxWorkers: 1,
};
