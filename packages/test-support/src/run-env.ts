import { randomUUID } from 'node:crypto';
import { writeBootstrapFile, type BootstrapAccounts } from './bootstrap-file';
import { amqpUrl, redisUrl } from './infrastructure';

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
    ...runPrefixEnv(prefix),
  };
}

/**
 * The key prefixes of auth, the gateway and the detectors' feedback, and the revocation channel, under
 * `prefix`: what keeps a run's state on the shared Redis apart (`removeKeysUnder(redis, prefix)` removes it).
 */
export function runPrefixEnv(prefix: string) {
  return {
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

type RunAccount = ReturnType<typeof runAccount>;

/** A run account as a bootstrap client: one that checks with the password grant unless told otherwise. */
export function runClient(account: RunAccount, scopes = ['spam:check'], grants = ['password']) {
  return { id: account.client, secret: account.secret, grants, scopes };
}

/** A run account's user, with `scopes` of its own when given (an administrator's `spam:admin`). */
export function runUser(account: RunAccount, scopes?: string[]) {
  const user = { username: account.username, password: account.password };
  return scopes ? { ...user, scopes } : user;
}

/**
 * The queues of a run on the shared RabbitMQ, named after its prefix: the detectors' RPC queues and the
 * gateway's webhook queue (its dead-letter and delay queues are named after it). The defaults are shared by
 * every stack on a broker; the run's own can be deleted when it ends (the gateway's tests' `removeStackQueues`).
 */
export function runQueueEnv(prefix: string) {
  return {
    EMAIL_RPC_QUEUE: `${prefix}email`,
    TEXT_RPC_QUEUE: `${prefix}text`,
    WEBHOOK_QUEUE: `${prefix}webhooks`,
  };
}

/**
 * The environment of a whole stack on the shared Redis and RabbitMQ: `runStackEnv`'s accounts and prefixes,
 * queues of the run's own (`runQueueEnv`), no DNS and no LLM. Auth's provisioning at start and the gateway's calls to auth
 * (a token grant hashes with scrypt) get deadlines that hold on a loaded machine (defaults 500 ms and 2 s).
 * A suite adds what it tests.
 */
export function sharedStackEnv(prefix: string, accounts: BootstrapAccounts) {
  return {
    REDIS_URL: redisUrl(),
    AMQP_URL: amqpUrl(),
    ...runStackEnv(prefix, accounts),
    ...runQueueEnv(prefix),
    EMAIL_DNS_CHECK: 'off',
    OPENAI_API_KEY: undefined,
    TEXT_LLM_MODE: 'never',
    AUTH_REDIS_TIMEOUT_MS: '5000',
    AUTH_TIMEOUT_MS: '10000',
  };
}
