import type { composeProject } from './docker';

/**
 * What the broker of a compose project says, through `rabbitmqctl` in its container: the consumers of the
 * detectors' queues and the bytes it sent to each container.
 */
export function brokerProbe(exec: ReturnType<typeof composeProject>['exec']) {
  async function rabbitmqctl<T>(...args: string[]): Promise<T[]> {
    return JSON.parse(await exec('rabbitmq', 'rabbitmqctl', '-q', ...args, '--formatter', 'json')) as T[];
  }

  /** Consumers per detector queue. */
  async function queueConsumers(): Promise<Record<string, number>> {
    const queues = await rabbitmqctl<{ name: string; consumers: number }>('list_queues', 'name', 'consumers');
    return Object.fromEntries(
      queues.filter((q) => /email|text/.test(q.name)).map((q) => [q.name, q.consumers]),
    );
  }

  /**
   * A peer address as `rabbitmqctl --formatter json` gives it: a string, or (RabbitMQ 4.0) the Erlang tuple, 4
   * bytes or 8 IPv6 words, IPv4 ones mapped (::ffff:a.b.c.d).
   */
  function peerAddress(peer: string | number[]): string {
    if (typeof peer === 'string') return peer.replace(/^::ffff:/, '');
    if (peer.length === 4) return peer.join('.');
    const [high = 0, low = 0] = peer.slice(6);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }

  /** Bytes the broker has sent to each container (by its address on the compose network). */
  async function bytesSentTo(): Promise<Map<string, number>> {
    const connections = await rabbitmqctl<{ peer_host: string | number[]; send_oct: number }>(
      'list_connections',
      'peer_host',
      'send_oct',
    );
    const sent = new Map<string, number>();
    for (const { peer_host, send_oct } of connections) {
      const host = peerAddress(peer_host);
      sent.set(host, (sent.get(host) ?? 0) + send_oct);
    }
    return sent;
  }

  return { queueConsumers, bytesSentTo };
}
