import type { IncomingMessage } from 'node:http';
import { AppError } from '@spam-check/service-kit';

/**
 * The calling client as the gateway forwards it (`X-Client-Id`, docs/design.md, Architecture): the gateway
 * drops any such header of the public request and sets it from the token's introspection. The detectors are
 * not public.
 */
export function clientIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['x-client-id'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** As `clientIdOf`, for routes that only make sense for a client (feedback): missing is a 400. */
export function requiredClientId(req: IncomingMessage): string {
  const client = clientIdOf(req);
  if (client === undefined)
    throw new AppError('INVALID_HEADER', { errors: [{ path: 'X-Client-Id', message: 'required' }] });
  return client;
}
