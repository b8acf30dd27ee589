/**
 * What every jest command shares: TypeScript compiled by swc, workspace packages resolved to their src. Each
 * command has its own config that extends this one and names its test folders: jest.unit.config.js
 * (`pnpm test:unit`), jest.integration.config.js (`pnpm test:integration`), jest.config.js (`pnpm test`: both),
 * jest.deploy.config.js (`pnpm test:deploy`) and jest.wordpress.config.js (`pnpm test:wordpress`).
 */
module.exports = {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/examples', '<rootDir>/test'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
    // eld (the text detector's language detector) is published as ES modules with an `import`-only export
    // map; jest runs CommonJS, so its files are compiled like ours and its entry is mapped by path.
    '/eld/src/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/eld@[^/]+/node_modules/)?eld/)'],
  moduleNameMapper: {
    '^eld/(small)$': '<rootDir>/services/text-detector/node_modules/eld/src/entries/static.$1.js',
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/packages/test-support/src/summary-reporter.js'],
};
