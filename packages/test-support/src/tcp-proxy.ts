import { once } from 'node:events';
import net from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server (RabbitMQ, Redis): the code under test connects through
 * it, and the test cuts or freezes the path the way a network failure would, without touching the server or
 * anyone else's connections to it.
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private readonly server = net.createServer((client) => this.accept(client));
  private refusing = false;
  private frozen = false;
  private accepted = 0;

  private constructor(private readonly target: URL) {}

  /**
   * Listens on 127.0.0.1 (`port` 0 picks a free one) and forwards to the host and port of `url` (an AMQP or
   * Redis URL; `defaultPort` when it names none).
   */
  static async start(url: string, defaultPort: number, port = 0): Promise<TcpProxy> {
    const target = new URL(url);
    if (!target.port) target.port = String(defaultPort);
    const proxy = new TcpProxy(target);
    proxy.server.listen(port, '127.0.0.1');
    await once(proxy.server, 'listening');
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** The target URL with the proxy's host and port: what the code under test connects to. */
  get url(): string {
    const proxied = new URL(this.target);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  /** Number of connections accepted and forwarded so far. */
  get connections(): number {
    return this.accepted;
  }

  private accept(client: net.Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    this.accepted += 1;
    const upstream = net.connect(Number(this.target.port), this.target.hostname);
    for (const socket of [client, upstream]) {
      // Without it, Nagle's algorithm and delayed ACKs add ~40 ms to every small request/reply through the proxy.
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    client.on('close', () => this.pairs.delete(pair));
    if (this.frozen) {
      client.pause();
      upstream.pause();
    } else client.pipe(upstream).pipe(client);
  }

  /** Cuts every open connection at once (both directions). */
  drop(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** While refusing, new connections are closed as soon as they are accepted. */
  refuse(refusing: boolean): void {
    this.refusing = refusing;
  }

  /**
   * Stops forwarding in both directions while keeping every socket open, as a network partition or a frozen
   * (SIGSTOPped) server does: nothing fails, nothing arrives. New connections are accepted and held too.
   */
  freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  /** Forwards again, including what was held back. */
  thaw(): void {
    if (!this.frozen) return;
    this.frozen = false;
    for (const [client, upstream] of this.pairs) client.pipe(upstream).pipe(client);
  }

  /** Resolves when the proxy has forwarded at least `count` connections. */
  async waitForConnections(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.accepted < count) {
      if (Date.now() > deadline) throw new Error(`proxy saw ${this.accepted} connections, expected ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    this.thaw();
    this.drop();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
