import { randomUUID } from 'node:crypto';
import { RpcRemoteError } from '@spam-check/amqp-rpc';
import { textResultSchema } from '@spam-check/contracts';
import { startRpcDetector, type RpcDetector } from './helpers';

describe('the RPC entry point (RabbitMQ, same domain function as HTTP)', () => {
  const queue = `test.text-detector.${randomUUID()}`;
  let rpc: RpcDetector;

  beforeAll(async () => {
    rpc = await startRpcDetector({ TEXT_RPC_QUEUE: queue });
  });

  afterAll(async () => {
    await rpc.stop();
  });

  const call = (payload: unknown, headers: Record<string, string> = {}) =>
    rpc.client.call<Record<string, unknown>>(queue, payload, { timeoutMs: 5000, headers });

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
