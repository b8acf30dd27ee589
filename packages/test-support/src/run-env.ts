import { randomUUID } from 'node:crypto';
import { writeBootstrapFile, type BootstrapAccounts } from './bootstrap-file';

/**
 * What every stack test gives its services so that runs on the shared Redis stay apart and
 * `removeRunKeys(prefix)` removes all they wrote: the auth bootstrap file with the run's accounts and the
 * gateway's own introspection client, the key prefixes of auth, the gateway and the detectors' feedback, and
 * the revocation channel.
 */
export function runStackEnv(prefix: string, accounts: BootstrapAccounts) {
  const gateway = { id: `gateway-${randomUUID().slice(0, 8)}`, secret: `gateway-${randomUUID()}` };
  const introspection = { id: gateway.id, secret: gateway.secret, grants: [], scopes: ['auth:introspect'] };
  return {
    AUTH_BOOTSTRAP_FILE: writeBootstrapFile({ ...accounts, clients: [...accounts.clients, introspection] }),
    GATEWAY_CLIENT_ID: gateway.id,
    GATEWAY_CLIENT_SECRET: gateway.secret,
    AUTH_REDIS_PREFIX: `${prefix}auth:`,
    REDIS_KEY_PREFIX: `${prefix}gateway:`,
    EMAIL_FEEDBACK_PREFIX: `${prefix}email-feedback:`,
    TEXT_FEEDBACK_PREFIX: `${prefix}text-feedback:`,
    AUTH_REVOCATION_CHANNEL: `${prefix}revocations`,
    REVOCATION_CHANNEL: `${prefix}revocations`,
  };
}

/** A confidential client and a user of its own, named after `name` (unique to the run), with fresh secrets. */
export function runAccount(name: string) {
  return {
    client: name,
    secret: `secret-${randomUUID()}`,
    username: `${name}-user`,
    password: `pw-${randomUUID()}`,
  };
}
