/**
 * `pnpm test:unit`: the tests under a `test/unit/` folder. They start no process, open no socket (not even on
 * loopback) and need no Redis or RabbitMQ, so no global setup looks for them.
 */
const base = require('./jest.base.config.js');

module.exports = {
  ...base,
  testMatch: ['**/test/unit/**/*.test.ts'],
};
