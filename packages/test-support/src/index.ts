export { redisUrl, amqpUrl } from './infrastructure';
export { collectProblems, launchBrowser, screenshotPath } from './browser';
export { TcpProxy } from './tcp-proxy';
export { keysUnder, removeKeysUnder } from './redis-keys';
export { runFixture } from './fixture';
export { writeBootstrapFile } from './bootstrap-file';
export { reportFeedback } from './detector-feedback';
export {
  runAccount,
  runClient,
  runPrefixEnv,
  runQueueEnv,
  runStackEnv,
  runUser,
  sharedStackEnv,
} from './run-env';
export { startRedisServer } from './redis-server';
export { campaignMemory, campaignTest, storeCampaignSettings } from './campaign-test';
export {
  startRedisCluster,
  startSentinelGroup,
  type RedisTopology,
  type SentinelGroup,
  type TopologyOptions,
} from './redis-topologies';
export { acceptsConnections, startRabbitCluster, type RabbitCluster } from './rabbit-cluster';
export { wholeList } from './paged-list';
