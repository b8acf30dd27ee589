// Jest global setup: provides REDIS_URL and AMQP_URL to every test worker.
// Taken from the environment when set; else started with testcontainers; else left unset with the reason
// recorded, so that the suites that need them fail with a message saying what to set (never a silent skip).
// In CI (CI=true) an unreachable Redis or RabbitMQ stops the whole run at once with a clear message.
const net = require('node:net');

const CONTAINERS = {
  REDIS_URL: { image: 'redis:7-alpine', port: 6379, url: (host, port) => `redis://${host}:${port}` },
  AMQP_URL: {
    image: 'rabbitmq:3.13-alpine',
    port: 5672,
    url: (host, port) => `amqp://guest:guest@${host}:${port}`,
  },
};

function reachable(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || defaultPort), hostname.replace(/^\[|\]$/g, ''));
    socket.setTimeout(2000);
    const settle = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket
      .on('connect', () => settle(true))
      .on('error', () => settle(false))
      .on('timeout', () => settle(false));
  });
}

async function provide(variable, spec) {
  if (process.env[variable]) {
    if (await reachable(process.env[variable], spec.port)) return;
    return `${variable}=${process.env[variable]} is set but nothing answers there.`;
  }
  try {
    const { GenericContainer, Wait } = require('testcontainers');
    let container = new GenericContainer(spec.image).withExposedPorts(spec.port);
    if (variable === 'AMQP_URL')
      container = container.withWaitStrategy(Wait.forLogMessage('Server startup complete'));
    const started = await container.start();
    globalThis.__SPAM_CHECK_CONTAINERS__.push(started);
    process.env[variable] = spec.url(started.getHost(), started.getMappedPort(spec.port));
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return `${variable} is not set and testcontainers could not start ${spec.image}: ${reason}`;
  }
}

module.exports = async function globalSetup() {
  globalThis.__SPAM_CHECK_CONTAINERS__ = [];
  const problems = [];
  for (const [variable, spec] of Object.entries(CONTAINERS)) {
    const problem = await provide(variable, spec);
    if (!problem) continue;
    problems.push(problem);
    process.env[`${variable}_UNAVAILABLE`] = problem;
    delete process.env[variable];
  }
  if (problems.length > 0 && process.env.CI === 'true') {
    throw new Error(`Tests need a real Redis and RabbitMQ:\n  ${problems.join('\n  ')}`);
  }
};
