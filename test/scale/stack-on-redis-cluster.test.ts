import { startRedisCluster } from '@spam-check/test-support';
import { describeStackOnTopology } from './stack-suite';

// The four services configured only through REDIS_CLUSTER_NODES and REDIS_PASSWORD; the master killed is the one that holds the
// load's client's report and check records (their hash tag is the client id).
describeStackOnTopology(
  'a Redis Cluster',
  startRedisCluster,
  (cluster) => ({ REDIS_CLUSTER_NODES: cluster.ports.map((port) => `127.0.0.1:${port}`).join(',') }),
  (clientId) => `{${clientId}}`,
);
