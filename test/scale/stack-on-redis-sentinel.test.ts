import { startSentinelGroup } from '@spam-check/test-support';
import { describeStackOnTopology } from './stack-suite';

// The four services configured only through REDIS_SENTINELS, REDIS_SENTINEL_NAME and
// REDIS_PASSWORD; the master is killed.
describeStackOnTopology(
  'a Sentinel group',
  startSentinelGroup,
  (group) => ({
    REDIS_SENTINELS: group.sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
    REDIS_SENTINEL_NAME: group.masterName,
  }),
  (clientId) => clientId,
);
