import { AppError } from '@spam-check/service-kit';
import { z } from 'zod';
import { authServiceCaller, type AuthServiceOptions } from './auth-service';

const answerSchema = z.union([
  z.object({ active: z.literal(true), client_id: z.string() }),
  z.object({ active: z.literal(false) }),
]);

/** The client an Akismet key stands for, or undefined for a wrong key. */
export type AkismetKeyVerifier = (
  key: string,
  meta: { requestId: string; clientAddress: string },
) => Promise<string | undefined>;

/**
 * Akismet keys are verified by the auth service (which owns clients and their keys) with the gateway's own
 * credentials, as tokens are introspected; the sender's address travels in `X-Forwarded-For`, so that wrong
 * keys count against it there. Over the attempt limits: RATE_LIMITED with auth's Retry-After; auth
 * unreachable, failing or answering anything else: SERVICE_UNAVAILABLE, never a key accepted.
 */
export function createAkismetKeyVerifier(options: AuthServiceOptions): AkismetKeyVerifier {
  const callAuth = authServiceCaller(options);
  return async (key, meta) => {
    const answer = await callAuth('/akismet/verify', {
      requestId: meta.requestId,
      headers: { 'X-Forwarded-For': meta.clientAddress },
      body: JSON.stringify({ key }),
      failure: 'akismet key check failed',
    });
    if (answer.status === 429)
      throw new AppError('RATE_LIMITED', { headers: { 'Retry-After': answer.retryAfter ?? '60' } });
    let parsed: z.infer<typeof answerSchema> | undefined;
    try {
      parsed = answerSchema.parse(JSON.parse(answer.body.toString('utf8')));
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'akismet key answer unexpected' });
    }
    if (answer.status !== 200)
      throw new AppError('SERVICE_UNAVAILABLE', { internal: `akismet key check answered ${answer.status}` });
    return parsed.active ? parsed.client_id : undefined;
  };
}
