/**
 * `pnpm test:scale`: the tests under `test/scale/`, which start Redis Clusters and Sentinel groups of their
 * own on loopback from Debian's redis package, and a three-node RabbitMQ cluster from Debian's
 * rabbitmq-server (several processes each), so they stay out of `pnpm test`; and a package's own tests that need
 * such a cluster, under its `test/scale/`.
 */
const base = require('./jest.base.config.js');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/scale/**/*.test.ts', '<rootDir>/packages/*/test/scale/**/*.test.ts'],
  maxWorkers: 1,
};
