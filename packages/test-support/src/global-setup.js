// Jest global setup: provides REDIS_URL and AMQP_URL to every test worker.
// Taken from the environment when set; else started with testcontainers; else left unset with the reason
// recorded, so that the suites that need them fail with a message saying what to set (never a silent skip).
const CONTAINERS = {
  REDIS_URL: { image: 'redis:7-alpine', port: 6379, url: (host, port) => `redis://${host}:${port}` },
  AMQP_URL: {
    image: 'rabbitmq:3.13-alpine',
    port: 5672,
    url: (host, port) => `amqp://guest:guest@${host}:${port}`,
  },
};

module.exports = async function globalSetup() {
  globalThis.__SPAM_CHECK_CONTAINERS__ = [];
  for (const [variable, spec] of Object.entries(CONTAINERS)) {
    if (process.env[variable]) continue;
    try {
      const { GenericContainer, Wait } = require('testcontainers');
      let container = new GenericContainer(spec.image).withExposedPorts(spec.port);
      if (variable === 'AMQP_URL')
        container = container.withWaitStrategy(Wait.forLogMessage('Server startup complete'));
      const started = await container.start();
      globalThis.__SPAM_CHECK_CONTAINERS__.push(started);
      process.env[variable] = spec.url(started.getHost(), started.getMappedPort(spec.port));
    } catch (error) {
      process.env[`${variable}_UNAVAILABLE`] =
        `${variable} is not set and testcontainers could not start ${spec.image}: ${
          error instanceof Error ? error.message.split('\n')[0] : String(error)
        }`;
    }
  }
};
