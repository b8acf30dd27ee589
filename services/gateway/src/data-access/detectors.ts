import type http from 'node:http';
import { RpcRemoteError, RpcTimeoutError, RpcUnavailableError, type RpcClient } from '@spam-check/amqp-rpc';
import { mailResultSchema, textResultSchema } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import { z } from 'zod';
import { interpretHttpAnswer, interpretRpcProblem, interpretRpcResult } from '../domain/detector-answer';
import type { BatchTransport } from '../domain/batch-check';
import type { CallMeta, DetectorTransport } from '../domain/hybrid-check';
import { UpstreamError, httpPost } from './http-post';

export interface HttpDetector {
  name: 'email-detector' | 'text-detector';
  url: string;
  agent: http.Agent;
}

/** Headers every detector call carries (HTTP names; the RPC transport sends the same in lower case). */
export function forwardedHeaders(meta: CallMeta): Record<string, string> {
  return { 'X-Request-Id': meta.requestId, 'Accept-Language': meta.language, 'X-Client-Id': meta.clientId };
}

export function upstreamFailure(error: unknown, detector: string): AppError {
  if (error instanceof UpstreamError) {
    switch (error.kind) {
      case 'timeout':
        return new AppError('DETECTOR_TIMEOUT', { cause: error, internal: `${detector}: ${error.message}` });
      case 'too_large':
        return new AppError('BAD_DETECTOR_RESPONSE', {
          cause: error,
          internal: `${detector}: ${error.message}`,
        });
      case 'unavailable':
        return new AppError('SERVICE_UNAVAILABLE', {
          cause: error,
          internal: `${detector}: ${error.message}`,
        });
    }
  }
  return new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: `${detector} call failed` });
}

async function postToDetector<S extends z.ZodType>(
  detector: HttpDetector,
  path: string,
  schema: S,
  body: unknown,
  meta: CallMeta,
  timeoutMs: number,
): Promise<z.output<S>> {
  const answer = await httpPost(new URL(path, detector.url).toString(), {
    agent: detector.agent,
    timeoutMs,
    headers: { ...forwardedHeaders(meta), 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }).catch((error: unknown) => {
    throw upstreamFailure(error, detector.name);
  });
  return interpretHttpAnswer(schema, answer.status, answer.body, detector.name);
}

const callOverHttp = <S extends z.ZodType>(
  detector: HttpDetector,
  schema: S,
  body: unknown,
  meta: CallMeta,
  timeoutMs: number,
) => postToDetector(detector, '/v1/check', schema, body, meta, timeoutMs);

/** A detector's `POST /v1/check/batch`: the items in one call, a result of the right shape for each. */
async function batchOverHttp<S extends z.ZodType>(
  detector: HttpDetector,
  schema: S,
  items: unknown[],
  meta: CallMeta,
  timeoutMs: number,
): Promise<z.output<S>[]> {
  if (items.length === 0) return [];
  const answer = z.object({ results: z.array(schema).length(items.length) });
  const { results } = await postToDetector(detector, '/v1/check/batch', answer, { items }, meta, timeoutMs);
  return results;
}

/** Both detectors over HTTP (`POST /v1/check`), with keep-alive agents and a per-call deadline. */
export function httpTransport(options: {
  email: HttpDetector;
  text: HttpDetector;
  timeoutMs: number;
}): DetectorTransport {
  return {
    checkMail: (request, meta) =>
      callOverHttp(options.email, mailResultSchema, request, meta, options.timeoutMs),
    checkText: (request, meta) =>
      callOverHttp(options.text, textResultSchema, request, meta, options.timeoutMs),
  };
}

/** Batches over HTTP: one call per detector and batch, on the same keep-alive agents as single checks. */
export function httpBatchTransport(options: {
  email: HttpDetector;
  text: HttpDetector;
  timeoutMs: number;
}): BatchTransport {
  return {
    checkMails: (items, meta) =>
      batchOverHttp(options.email, mailResultSchema, items, meta, options.timeoutMs),
    checkTexts: (items, meta) =>
      batchOverHttp(options.text, textResultSchema, items, meta, options.timeoutMs),
  };
}

async function callOverRpc<S extends z.ZodType>(
  client: RpcClient,
  queue: string,
  schema: S,
  body: unknown,
  meta: CallMeta,
  timeoutMs: number,
): Promise<z.output<S>> {
  let result: unknown;
  try {
    result = await client.call(queue, body, {
      timeoutMs,
      headers: {
        'x-request-id': meta.requestId,
        'accept-language': meta.language,
        'x-client-id': meta.clientId,
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
  return interpretRpcResult(schema, result, queue);
}

/** Both detectors over RabbitMQ RPC; the timeout is also the message expiration (set by the RPC client). */
export function rpcTransport(options: {
  client: RpcClient;
  emailQueue: string;
  textQueue: string;
  timeoutMs: number;
}): DetectorTransport {
  const { client, timeoutMs } = options;
  return {
    checkMail: (request, meta) =>
      callOverRpc(client, options.emailQueue, mailResultSchema, request, meta, timeoutMs),
    checkText: (request, meta) =>
      callOverRpc(client, options.textQueue, textResultSchema, request, meta, timeoutMs),
  };
}
