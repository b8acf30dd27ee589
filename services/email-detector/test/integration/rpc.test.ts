import { randomUUID } from 'node:crypto';
import {
  createRpcClient,
  rpcQueueName,
  RpcRemoteError,
  type RpcClient,
  type RpcServer,
} from '@spam-check/amqp-rpc';
import { mailResultSchema, problemSchema } from '@spam-check/contracts';
import { createLogger, createMetrics } from '@spam-check/service-kit';
import { amqpUrl } from '@spam-check/test-support';
import { connect } from 'amqplib';
import { loadServiceConfig } from '../../src/config';
import { createEmailChecker } from '../../src/compose';
import { startRpcConsumer } from '../../src/entry-points/amqp/rpc-consumer';
import { startLoopbackDnsServer, type LoopbackDnsServer } from './support/dns-server';

describe('the RPC entry point (RabbitMQ, same domain function as HTTP)', () => {
  const queue = `test.email-detector.${randomUUID()}`;
  const logger = createLogger({ service: 'email-detector', level: 'silent' });
  let dns: LoopbackDnsServer;
  let server: RpcServer;
  let client: RpcClient;
  let checker: ReturnType<typeof createEmailChecker>;

  beforeAll(async () => {
    dns = await startLoopbackDnsServer({
      'with-mx.example': { mx: [{ preference: 10, exchange: 'mx.with-mx.example' }] },
    });
    const config = loadServiceConfig({
      LOG_LEVEL: 'silent',
      EMAIL_DNS_SERVERS: dns.address,
      EMAIL_RPC_QUEUE: queue,
    });
    checker = createEmailChecker(config, createMetrics('email-detector'));
    server = startRpcConsumer({
      url: [amqpUrl()],
      queue: config.EMAIL_RPC_QUEUE,
      queueType: config.RPC_QUEUE_TYPE,
      logger,
      languages: config.LANGUAGES,
      defaultLanguage: config.DEFAULT_LANGUAGE,
      checker,
      limits: config.limits,
    });
    await server.ready();
    client = createRpcClient({ url: amqpUrl(), logger });
    await client.ready();
  });

  afterAll(async () => {
    await client.close();
    await server.close();
    checker.mailServers?.close();
    await dns.close();
    const connection = await connect(amqpUrl());
    const channel = await connection.createChannel();
    await channel.deleteQueue(rpcQueueName(queue, 'quorum'));
    await connection.close();
  });

  const call = (payload: unknown, headers: Record<string, string> = {}) =>
    client.call<Record<string, unknown>>(queue, payload, { timeoutMs: 5000, headers });

  it('answers a mail check with the full mail result, in the language and with the request id of the headers', async () => {
    const result = await call(
      { email: 'admin@With-MX.example' },
      { 'x-request-id': 'rpc-req-1', 'accept-language': 'fr' },
    );
    const parsed = mailResultSchema.parse(result);
    expect(parsed).toMatchObject({
      request_id: 'rpc-req-1',
      verdict: 'ham',
      valid: true,
      email: { normalized: 'admin@with-mx.example' },
      checks: { dns: { status: 'pass', detail: 'mx' }, role_account: { status: 'fail' } },
    });
    expect(parsed.reasons).toEqual([
      {
        code: 'EMAIL_ROLE_ACCOUNT',
        message: "L'adresse est un compte de fonction (admin), pas une personne.",
        weight: 0.3,
      },
    ]);
  });

  it('gives the same verdicts as HTTP for fixtures and invalid syntax', async () => {
    expect(await call({ email: 'spam@spam-check.test' })).toMatchObject({
      verdict: 'spam',
      spam: true,
      score: 1,
    });
    expect(await call({ email: 'a@b@c' })).toMatchObject({
      valid: false,
      spam: true,
      reasons: [expect.objectContaining({ code: 'EMAIL_INVALID_SYNTAX' })],
    });
  });

  it('when the payload is not a mail check request, it replies the VALIDATION_FAILED problem', async () => {
    const failure = await call(
      { mail: 'x@example.com' },
      { 'x-request-id': 'rpc-bad-1', 'accept-language': 'de' },
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RpcRemoteError);
    const problem = problemSchema.parse((failure as RpcRemoteError).problem);
    expect(problem).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      request_id: 'rpc-bad-1',
      title: 'Validierung fehlgeschlagen',
    });
    expect(problem.errors?.[0]?.path).toBe('email');
  });
});
