export { runBenches } from './bench';
export { createPinning, type Pinning } from './pinning';
export { freePort, waitForPort } from './ports';
export { procStat, processCpu, processCpuSeconds, processRssBytes, stealSeconds } from './proc';
export {
  REPO_ROOT,
  SERVICES,
  spawnService,
  stopService,
  waitForReady,
  type ReadyOptions,
  type ServiceName,
  type ServiceProcess,
  type SpawnOptions,
} from './services';
export { startStack, type Stack, type StackOptions } from './stack';
export { median, medianBy, percentile } from './stats';
