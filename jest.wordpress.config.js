/**
 * `pnpm test:wordpress`: the WordPress plugin's end-to-end tests under `test/wordpress/` (they need Debian's
 * WordPress, PHP and MariaDB, which `test/wordpress/install-packages.sh` installs)
 * and the real Redis and RabbitMQ, which the global setup checks.
 */
const base = require('./jest.base.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/wordpress'],
  testMatch: ['<rootDir>/test/wordpress/**/*.test.ts'],
  globalSetup: '<rootDir>/packages/test-support/src/global-setup.js',
  globalTeardown: '<rootDir>/packages/test-support/src/global-teardown.js',
  testTimeout: 180_000,
  maxWorkers: 1,
};
