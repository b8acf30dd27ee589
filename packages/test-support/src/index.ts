export { redisUrl, amqpUrl } from './infrastructure';
export { chromiumPath, launchBrowser } from './browser';
export { procStat, processCpuSeconds, processRssBytes } from './proc';
export { TcpProxy } from './tcp-proxy';
export {
  startStack,
  spawnService,
  waitForReady,
  stopService,
  freePort,
  REPO_ROOT,
  SERVICES,
  type Stack,
  type ServiceName,
  type ServiceProcess,
} from './stack';
