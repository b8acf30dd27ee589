/**
 * `pnpm test:clients`: real third-party clients, unpatched (npm akismet-api and akismet, openid-client, Perl's
 * Net::Akismet, the Akismet plugin of Debian's WordPress), against the real stack;
 * `test/clients/install-packages.sh` installs the Debian packages they need, and the global setup checks that
 * Redis and RabbitMQ answer.
 */
const base = require('./jest.base.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testMatch: ['<rootDir>/test/clients/**/*.test.ts'],
  globalSetup: '<rootDir>/packages/test-support/src/global-setup.js',
  globalTeardown: '<rootDir>/packages/test-support/src/global-teardown.js',
  testTimeout: 120_000,
  maxWorkers: 1,
};
