/**
 * `pnpm --filter @spam-check/amqp-rpc bench`: round trips through RabbitMQ (client and echo server in this
 * process) at a few concurrencies, with p50/p99 and calls per CPU-second of this process. Loopback broker
 * only (AMQP_URL, default amqp://guest:guest@127.0.0.1:5672); one unique queue, deleted afterwards. ~15 s.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { percentile, runBenches } from '@spam-check/process-kit';
import pino from 'pino';
import { createRpcClient, createRpcServer, rpcQueueName } from '../src';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const DURATION_MS = 4000;
const CONCURRENCY = [1, 16, 64];
const PAYLOAD = { email: 'someone@example.com', title: 'Hello', body: 'x'.repeat(500) };

async function roundTrips(): Promise<void> {
  const host = new URL(AMQP_URL).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(`the bench only runs against a loopback broker, not ${host}`);
  }
  const logger = pino({ level: 'warn' });
  const queue = `bench.amqp-rpc.${randomUUID()}`;
  const server = createRpcServer({ url: AMQP_URL, logger, queue, prefetch: 64, handler: async (p) => p });
  const client = createRpcClient({ url: AMQP_URL, logger });
  await Promise.all([server.ready(), client.ready()]);
  try {
    for (const concurrency of CONCURRENCY) {
      const latencies: number[] = [];
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const worker = async (): Promise<void> => {
        while (performance.now() - started < DURATION_MS) {
          const t0 = performance.now();
          await client.call(queue, PAYLOAD, { timeoutMs: 5000, headers: { 'x-request-id': 'bench' } });
          latencies.push(performance.now() - t0);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const elapsedS = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuS = (cpu.user + cpu.system) / 1e6;
      console.log(
        `concurrency ${String(concurrency).padStart(3)}: ${Math.round(latencies.length / elapsedS)
          .toString()
          .padStart(
            6,
          )} calls/s   p50 ${percentile(latencies, 0.5).toFixed(2)} ms   p99 ${percentile(latencies, 0.99).toFixed(2)} ms   ` +
          `${Math.round(latencies.length / cpuS)} calls per CPU-second (client+server, ${latencies.length} calls)`,
      );
    }
  } finally {
    await client.close();
    await server.close();
    const admin = await connect(AMQP_URL);
    const channel = await admin.createChannel();
    await channel.deleteQueue(rpcQueueName(queue, 'quorum'));
    await admin.close();
  }
}

void runBenches({ 'round-trips': roundTrips });
