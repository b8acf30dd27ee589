import { setImmediate as nextTurn } from 'node:timers/promises';
import { RpcRemoteError, RpcTimeoutError, RpcUnavailableError, type RpcClient } from '@spam-check/amqp-rpc';
import {
  createDetectorRpcSchemas,
  DETECTOR_RPC_HEADERS,
  detectorFeedbackAnswerSchema,
  mailResultSchema,
  textResultSchema,
} from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import { z } from 'zod';
import { interpretRpcProblem, interpretRpcResult } from '../domain/detector-answer';
import type { BatchTransport } from '../domain/batch-check';
import type { CallMeta, DetectorTransport } from '../domain/hybrid-check';
import { callDetector, type HttpDetector } from './detector-client';

/** A detector's `POST /v1/check`, answered in the shape of `schema`. */
const callOverHttp =
  <S extends z.ZodType>(detector: HttpDetector, schema: S, timeoutMs: number) =>
  async (body: unknown, meta: CallMeta) => {
    const { result } = await callDetector(detector, {
      path: '/v1/check',
      schema,
      body: { json: body },
      meta,
      timeoutMs,
    });
    return result;
  };

/** A detector's `POST /v1/feedback`: the report is learnt, or an AppError (`CHECK_NOT_FOUND`: unknown check). */
export async function sendFeedback(
  detector: HttpDetector,
  report: object,
  meta: CallMeta,
  timeoutMs: number,
): Promise<void> {
  await callDetector(detector, {
    path: '/v1/feedback',
    schema: detectorFeedbackAnswerSchema,
    body: { json: report },
    meta,
    timeoutMs,
  });
}

/** How much of a batch body is serialised in one turn of the event loop. */
const SLICE_BYTES = 256 * 1024;

/**
 * `{"items": [...]}` as UTF-8 bytes, serialised item by item with a turn of the event loop after every
 * `SLICE_BYTES`: a batch body of megabytes never holds the gateway's event loop in one piece, so another
 * client's check is served in between.
 */
async function itemsBody(items: readonly unknown[]): Promise<Buffer> {
  const pieces = [Buffer.from('{"items":[')];
  let slice = 0;
  for (const [index, item] of items.entries()) {
    const piece = Buffer.from(`${index === 0 ? '' : ','}${JSON.stringify(item)}`);
    pieces.push(piece);
    slice += piece.length;
    if (slice >= SLICE_BYTES) {
      slice = 0;
      await nextTurn();
    }
  }
  pieces.push(Buffer.from(']}'));
  return Buffer.concat(pieces);
}

/** A detector's `POST /v1/check/batch`: the items in one call, a result of the right shape for each. */
const batchOverHttp =
  <S extends z.ZodType>(detector: HttpDetector, schema: S, timeoutMs: number) =>
  async (items: unknown[], meta: CallMeta): Promise<z.output<S>[]> => {
    if (items.length === 0) return [];
    const answer = z.object({ results: z.array(schema).length(items.length) });
    const { result } = await callDetector(detector, {
      path: '/v1/check/batch',
      schema: answer,
      body: { bytes: await itemsBody(items) },
      meta,
      timeoutMs,
    });
    return result.results;
  };

/** Both detectors over HTTP, and how long an answer may take. */
interface HttpDetectors {
  email: HttpDetector;
  text: HttpDetector;
  timeoutMs: number;
}

/** Both detectors over HTTP (`POST /v1/check`), through the one detector client (`callDetector`). */
export function httpTransport({ email, text, timeoutMs }: HttpDetectors): DetectorTransport {
  return {
    checkMail: callOverHttp(email, mailResultSchema, timeoutMs),
    checkText: callOverHttp(text, textResultSchema, timeoutMs),
  };
}

/** Batches over HTTP: one call per detector and batch, on the same keep-alive agents as single checks. */
export function httpBatchTransport({ email, text, timeoutMs }: HttpDetectors): BatchTransport {
  return {
    checkMails: batchOverHttp(email, mailResultSchema, timeoutMs),
    checkTexts: batchOverHttp(text, textResultSchema, timeoutMs),
  };
}

/** One call of a detector's queue: the request and result schemas are the contract the consumer uses too. */
async function callOverRpc<Q extends { request: z.ZodType; result: z.ZodType }>(
  client: RpcClient,
  queue: string,
  schemas: Q,
  body: z.output<Q['request']>,
  meta: CallMeta,
  timeoutMs: number,
): Promise<z.output<Q['result']>> {
  let result: unknown;
  try {
    result = await client.call(queue, body, {
      timeoutMs,
      headers: {
        [DETECTOR_RPC_HEADERS.requestId]: meta.requestId,
        [DETECTOR_RPC_HEADERS.language]: meta.language,
        [DETECTOR_RPC_HEADERS.clientId]: meta.clientId,
      },
    });
  } catch (error) {
    if (error instanceof RpcRemoteError) throw interpretRpcProblem(error.problem, queue);
    if (error instanceof RpcTimeoutError)
      throw new AppError('DETECTOR_TIMEOUT', { cause: error, internal: `RPC to ${queue} timed out` });
    if (error instanceof RpcUnavailableError)
      throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: `RPC to ${queue} unavailable` });
    throw error;
  }
  return interpretRpcResult<Q['result']>(schemas.result, result, queue);
}

/** Both detectors over RabbitMQ RPC; the timeout is also the message expiration (set by the RPC client). */
export function rpcTransport(options: {
  client: RpcClient;
  emailQueue: string;
  textQueue: string;
  timeoutMs: number;
}): DetectorTransport {
  const { client, timeoutMs } = options;
  const rpc = createDetectorRpcSchemas();
  return {
    checkMail: (request, meta) =>
      callOverRpc(client, options.emailQueue, rpc.email, request, meta, timeoutMs),
    checkText: (request, meta) => callOverRpc(client, options.textQueue, rpc.text, request, meta, timeoutMs),
  };
}
