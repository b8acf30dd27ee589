module.exports = async function globalTeardown() {
  for (const container of globalThis.__SPAM_CHECK_CONTAINERS__ ?? []) await container.stop();
};
