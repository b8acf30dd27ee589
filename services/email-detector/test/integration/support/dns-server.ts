import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import * as dnsPacket from 'dns-packet';

/** How the loopback DNS server answers for one domain; unknown domains get NXDOMAIN. */
export type ZoneEntry =
  | { mx: { preference: number; exchange: string }[]; a?: string[]; aaaa?: string[] }
  | { a?: string[]; aaaa?: string[] }
  | 'null_mx'
  | 'nxdomain'
  | 'servfail'
  | 'silent';

export interface LoopbackDnsServer {
  /** `127.0.0.1:<port>`, for EMAIL_DNS_SERVERS. */
  address: string;
  /** Questions received per `<domain> <type>`. */
  queries: Map<string, number>;
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

function answerFor(zone: Record<string, ZoneEntry>, question: dnsPacket.Question) {
  const entry = zone[question.name.toLowerCase()];
  if (entry === undefined || entry === 'nxdomain') return { rcode: RCODE.NXDOMAIN, answers: [] };
  if (entry === 'servfail') return { rcode: RCODE.SERVFAIL, answers: [] };
  if (entry === 'silent') return null;
  const base = { name: question.name, class: 'IN' as const, ttl: 300 };
  if (entry === 'null_mx')
    return question.type === 'MX'
      ? {
          rcode: RCODE.NOERROR,
          answers: [{ ...base, type: 'MX' as const, data: { preference: 0, exchange: '' } }],
        }
      : { rcode: RCODE.NOERROR, answers: [] };
  if (question.type === 'MX' && 'mx' in entry)
    return {
      rcode: RCODE.NOERROR,
      answers: entry.mx.map((data) => ({ ...base, type: 'MX' as const, data })),
    };
  if (question.type === 'A')
    return {
      rcode: RCODE.NOERROR,
      answers: (entry.a ?? []).map((data) => ({ ...base, type: 'A' as const, data })),
    };
  if (question.type === 'AAAA')
    return {
      rcode: RCODE.NOERROR,
      answers: (entry.aaaa ?? []).map((data) => ({ ...base, type: 'AAAA' as const, data })),
    };
  return { rcode: RCODE.NOERROR, answers: [] };
}

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP, real DNS wire format via dns-packet) that answers MX, A
 * and AAAA from a fixed zone, for tests and the bench. `silent` domains never get an answer (timeouts).
 */
export async function startLoopbackDnsServer(zone: Record<string, ZoneEntry>): Promise<LoopbackDnsServer> {
  const socket: Socket = createSocket('udp4');
  const queries = new Map<string, number>();
  socket.on('message', (message, remote) => {
    let request: dnsPacket.Packet;
    try {
      request = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = request.questions?.[0];
    if (!question) return;
    const key = `${question.name.toLowerCase()} ${question.type}`;
    queries.set(key, (queries.get(key) ?? 0) + 1);
    const answer = answerFor(zone, question);
    if (!answer) return;
    const response = dnsPacket.encode({
      type: 'response',
      id: request.id ?? 0,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | answer.rcode,
      questions: [question],
      answers: answer.answers,
    });
    socket.send(response, remote.port, remote.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
