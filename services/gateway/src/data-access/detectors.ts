import type http from 'node:http';
import { RpcRemoteError, RpcTimeoutError, RpcUnavailableError, type RpcClient } from '@spam-check/amqp-rpc';
import { mailResultSchema, textResultSchema } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import type { z } from 'zod';
import { interpretHttpAnswer, interpretRpcProblem, interpretRpcResult } from '../domain/detector-answer';
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

async function callOverHttp<S extends z.ZodType>(
  detector: HttpDetector,
  schema: S,
  body: unknown,
  meta: CallMeta,
  timeoutMs: number,
): Promise<z.output<S>> {
  const answer = await httpPost(new URL('/v1/check', detector.url).toString(), {
    agent: detector.agent,
    timeoutMs,
    headers: { ...forwardedHeaders(meta), 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }).catch((error: unknown) => {
    throw upstreamFailure(error, detector.name);
  });
  return interpretHttpAnswer(schema, answer.status, answer.body, detector.name);
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
