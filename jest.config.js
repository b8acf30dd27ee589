/** `pnpm test`: the unit and the integration tests in one run (jest.unit.config.js, jest.integration.config.js). */
const integration = require('./jest.integration.config.js');
const unit = require('./jest.unit.config.js');

module.exports = {
  ...integration,
  testMatch: [...unit.testMatch, ...integration.testMatch],
};
