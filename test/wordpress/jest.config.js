/**
 * `pnpm test:wordpress`: the WordPress plugin's end-to-end test, on its own (it needs Debian's WordPress, PHP
 * and MariaDB, which `test/wordpress/install-packages.sh` installs). The workspace's jest settings, with only
 * this folder's `*.e2e.ts` files, which the plain `pnpm test` does not pick up.
 */
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/wordpress'],
  testMatch: ['<rootDir>/test/wordpress/**/*.e2e.ts'],
  testTimeout: 180_000,
  maxWorkers: 1,
};
