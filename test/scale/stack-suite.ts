import { randomBytes } from 'node:crypto';
import type { RedisTopology, TopologyOptions } from '@spam-check/test-support';
import { callJson, within } from '../integration/e2e/client';
import { describeFigures, loadThroughFailover } from './failover-load';
import { startStackOnRedis, type RedisTopologyEnv, type StackOnRedis } from './stack';
import { stackEndToEndChecks } from './stack-checks';

/** Longest accepted failover, from the kill to the last failed answer (Redis's own detection included). */
const MAX_WINDOW_MS = 45_000;
/**
 * Redis replicates asynchronously: a write the master acknowledged in the moment before it died may not have
 * reached the replica that takes over (docs/operations.md, "Redis Sentinel and Cluster"). A lost report must
 * have been accepted within this long before the kill; any other loss fails the test.
 */
const REPLICATION_LAG_BOUND_MS = 1000;

/**
 * The stack on one Redis topology of the test's own, its data nodes behind a password (REDIS_PASSWORD): the
 * end-to-end checks, then a master killed under load (`killKey`: a key whose master to kill, given the run's
 * client id), with the figures printed and asserted.
 */
export function describeStackOnTopology<T extends RedisTopology>(
  name: string,
  start: (options: TopologyOptions) => Promise<T>,
  envOf: (topology: T) => Partial<RedisTopologyEnv>,
  killKey: (clientId: string) => string,
): void {
  describe(`the stack on ${name}`, () => {
    let topology: T;
    let target: StackOnRedis;

    beforeAll(async () => {
      const password = randomBytes(16).toString('hex');
      topology = await start({ password });
      target = await startStackOnRedis({ ...envOf(topology), REDIS_PASSWORD: password });
    }, 300_000);
    afterAll(async () => {
      await target?.stack.stop();
      await topology?.stop();
    });

    stackEndToEndChecks(() => target);

    it('when a Redis master is killed under load, no answer is wrong, 503s come with Retry-After inside the failover window, and the services recover without a restart (revocations too)', async () => {
      const pids = Object.values(target.stack.services).map((service) => service.child.pid);
      const victim = topology.masterOf(killKey(target.client.id));
      const result = await loadThroughFailover(target, {
        warmupMs: 4000,
        maxMs: MAX_WINDOW_MS + 15_000,
        kill: () => topology.kill(victim),
      });
      console.log(describeFigures(name, result));

      expect(result.wrong).toEqual([]);
      expect(result.failedBeforeKill).toEqual([]);
      expect(result.broken).toEqual([]);
      expect(result.windowMs).toBeLessThan(MAX_WINDOW_MS);
      expect(result.reportsBeforeKill.length).toBeGreaterThan(0);
      expect(result.reportsAfterKill.length).toBeGreaterThan(0);
      expect(result.lostAfterKill).toEqual([]);
      for (const lost of result.lostBeforeKill)
        expect(lost.msBeforeKill).toBeLessThan(REPLICATION_LAG_BOUND_MS);
      expect(topology.masterOf(killKey(target.client.id))).not.toBe(victim);
      const running = Object.values(target.stack.services).filter(
        (service) => service.child.exitCode === null,
      );
      expect(running.map((service) => service.child.pid)).toEqual(pids);

      // Revocations travel over Redis pub/sub: a token revoked after the failover is refused long before the
      // gateway's cached introspection (30 s) would expire.
      const token = await target.issueToken();
      const mail = () =>
        callJson('POST', `${target.stack.gateway}/api/v1/spam/mail`, token, { email: 'ham@spam-check.test' });
      expect((await mail()).status).toBe(200);
      expect((await target.revokeToken(token)).status).toBe(200);
      expect((await within(5000, mail, (answer) => answer.status === 401)).status).toBe(401);
    }, 180_000);
  });
}
