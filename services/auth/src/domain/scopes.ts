import { ADMIN_SCOPE, DEFAULT_SCOPE } from '@spam-check/contracts';

/** Lets a client call POST /oauth/introspect (the gateway's client has it). */
export const INTROSPECT_SCOPE = 'auth:introspect';

/**
 * Lets a client call the internal /admin/* endpoints (the gateway's client has it: it checks `spam:admin`
 * on the caller's token and names the caller in X-Admin-Client-Id / X-Admin-Username).
 */
export const ADMIN_PROXY_SCOPE = 'auth:admin';

/** Clients holding an `auth:*` scope are the services' own: the admin API neither shows nor changes them. */
export const isInternalClient = (scopes: readonly string[]) =>
  scopes.some((scope) => scope.startsWith('auth:'));

/**
 * The scopes a user may hold with a client (docs/design.md, Administration): the client's scopes that the
 * user holds too. A user without a `scopes` list holds every scope but `spam:admin`.
 */
export function userClientScopes(clientScopes: readonly string[], userScopes: readonly string[] | undefined) {
  return clientScopes.filter((scope) => (userScopes ? userScopes.includes(scope) : scope !== ADMIN_SCOPE));
}

/**
 * The scopes a client may hold on its own, with the client_credentials grant (docs/design.md, Tokens): its
 * scopes but `spam:admin`, which needs a user.
 */
export const clientOnlyScopes = (clientScopes: readonly string[]) =>
  clientScopes.filter((scope) => scope !== ADMIN_SCOPE);

/**
 * The scope granted for a password or client_credentials grant: the requested one if the client may have all of it, else none
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
