import { randomUUID } from 'node:crypto';
import { createRpcClient, RpcRemoteError, type RpcClient, type RpcServer } from '@spam-check/amqp-rpc';
import { textResultSchema } from '@spam-check/contracts';
import { createLogger, createMetrics } from '@spam-check/service-kit';
import { amqpUrl } from '@spam-check/test-support';
import { connect } from 'amqplib';
import { loadServiceConfig } from '../src/config';
import { composeTextCheck } from '../src/compose';
import { startRpcConsumer } from '../src/entry-points/amqp/rpc-consumer';

describe('the RPC entry point (RabbitMQ, same domain function as HTTP)', () => {
  const queue = `test.text-detector.${randomUUID()}`;
  const logger = createLogger({ service: 'text-detector', level: 'silent' });
  let server: RpcServer;
  let client: RpcClient;

  beforeAll(async () => {
    const config = loadServiceConfig({ LOG_LEVEL: 'silent', TEXT_LLM_MODE: 'never', TEXT_RPC_QUEUE: queue });
    const { checkText } = await composeTextCheck(config, logger, createMetrics('text-detector'));
    server = startRpcConsumer({
      url: amqpUrl(),
      queue: config.TEXT_RPC_QUEUE,
      prefetch: config.TEXT_RPC_PREFETCH,
      logger,
      languages: config.LANGUAGES,
      defaultLanguage: config.DEFAULT_LANGUAGE,
      checkText,
      limits: config.limits,
    });
    await server.ready();
    client = createRpcClient({ url: amqpUrl(), logger });
    await client.ready();
  });

  afterAll(async () => {
    await client.close();
    await server.close();
    const connection = await connect(amqpUrl());
    const channel = await connection.createChannel();
    await channel.deleteQueue(queue);
    await connection.close();
  });

  const call = (payload: unknown, headers: Record<string, string> = {}) =>
    client.call<Record<string, unknown>>(queue, payload, { timeoutMs: 5000, headers });

  it('answers a text check with the full text result, in the language and with the request id of the headers', async () => {
    const result = textResultSchema.parse(
      await call(
        { title: 'Hallo', body: 'Ein Text mit spam-check-test-spam darin', sub_title: 'x' },
        { 'x-request-id': 'rpc-text-1', 'accept-language': 'de' },
      ),
    );
    expect(result).toMatchObject({ spam: true, engine: 'rules', request_id: 'rpc-text-1' });
    expect(result.reasons[0]).toMatchObject({ code: 'TEXT_TEST_FIXTURE' });
    expect(result.reasons[0]?.message).toMatch(/Testtext/);
  });

  it('when the body is invalid, it replies with the VALIDATION_FAILED problem', async () => {
    const failure: unknown = await call({ title: 'x' }, { 'x-request-id': 'rpc-text-2' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RpcRemoteError);
    expect((failure as RpcRemoteError).problem).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });
});
