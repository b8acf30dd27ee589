/**
 * `pnpm test:deploy` only (scripts/deploy/test.sh): the compose stack end to end. It needs a Docker engine,
 * so `pnpm test` leaves its files (*.deploy.ts) out; TypeScript is compiled as in jest.config.js.
 */
module.exports = {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
  roots: ['<rootDir>/test/compose'],
  testMatch: ['**/*.deploy.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 180000,
  maxWorkers: 1,
};
