/**
 * `pnpm test:integration`: the tests under a `test/integration/` folder: services on port 0, child processes,
 * loopback servers, the real Redis and RabbitMQ (the global setup checks they answer).
 */
const base = require('./jest.base.config.js');

module.exports = {
  ...base,
  testMatch: ['**/test/integration/**/*.test.ts'],
  globalSetup: '<rootDir>/packages/test-support/src/global-setup.js',
  globalTeardown: '<rootDir>/packages/test-support/src/global-teardown.js',
};
