import { DEFAULT_SCOPE } from '@spam-check/contracts';

/** Lets a client call POST /oauth/introspect (the gateway's client has it). */
export const INTROSPECT_SCOPE = 'auth:introspect';

/**
 * The scope granted for a password grant: the requested one if the client may have all of it, else none
 * (invalid_scope). Without a request: `spam:check` if the client may have it, else everything it may have.
 */
export function grantedScope(requested: string[] | undefined, allowed: string[]): string[] | undefined {
  if (!requested || requested.length === 0)
    return allowed.includes(DEFAULT_SCOPE) ? [DEFAULT_SCOPE] : allowed.length > 0 ? [...allowed] : undefined;
  const unique = [...new Set(requested)];
  return unique.every((scope) => allowed.includes(scope)) ? unique : undefined;
}

/** RFC 6749 §6: a refresh may narrow the original scope, never widen it. */
export function refreshedScope(requested: string[] | undefined, original: string[]): string[] | undefined {
  if (!requested || requested.length === 0) return original;
  const unique = [...new Set(requested)];
  return unique.every((scope) => original.includes(scope)) ? unique : undefined;
}
