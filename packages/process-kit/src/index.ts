export { runBenches } from './bench';
export { createPinning } from './pinning';
export { freePort, waitForPort } from './ports';
export { processCpu, processCpuSeconds, processRssBytes, stealSeconds } from './proc';
export {
  REPO_ROOT,
  SERVICES,
  spawnService,
  startService,
  stopService,
  waitForExit,
  waitForReady,
  type ServiceName,
  type ServiceProcess,
} from './services';
export { SELF_CONTAINED_ENV, startStack, type Stack } from './stack';
export { median, medianBy, percentile } from './stats';
export { benchDetectorFairness } from './detector-fairness';
