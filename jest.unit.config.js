/**
 * `pnpm test:unit`: the tests under a `test/unit/` folder, which need no Redis, RabbitMQ, browser or child
 * process (DESIGN.md §7.6), so no global setup looks for Redis or RabbitMQ. `pnpm test` runs them too.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testMatch: ['**/test/unit/**/*.test.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
};
