import { randomBytes } from 'node:crypto';
import {
  CLIENT_GRANTS,
  DEFAULT_CLIENT_GRANTS,
  DEFAULT_SCOPE,
  UNRESERVED_SECRET,
  UNRESERVED_SECRET_MESSAGE,
} from '@spam-check/contracts';
import { z } from 'zod';
import type { AuthStore, ClientRecord } from './store';
import type { SecretHasher } from './secrets';
import { revokeClientTokens } from './token-service';

const scopeList = z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be an RFC 6749 scope token'));

/** A client secret, as given to the CLI or in the bootstrap file (generated ones always qualify). */
export const clientSecretSchema = z
  .string()
  .min(1)
  .max(1000)
  .regex(UNRESERVED_SECRET, `a client secret ${UNRESERVED_SECRET_MESSAGE}`);

const clientInputSchema = z.object({
  id: z.string().min(1).max(200),
  secret: clientSecretSchema,
  grants: z.array(z.enum(CLIENT_GRANTS)).default([...DEFAULT_CLIENT_GRANTS]),
  scopes: scopeList.default([DEFAULT_SCOPE]),
});
export type ClientInput = z.input<typeof clientInputSchema>;

const userInputSchema = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1000),
  /** Absent: every scope of the client but `spam:admin` (see domain/scopes.ts). */
  scopes: scopeList.optional(),
});
export type UserInput = z.input<typeof userInputSchema>;

/** The AUTH_BOOTSTRAP_FILE format. */
export const bootstrapSchema = z.object({
  clients: z.array(clientInputSchema).default([]),
  users: z.array(userInputSchema).default([]),
});
export type BootstrapFile = z.input<typeof bootstrapSchema>;

export type Change = 'created' | 'updated' | 'unchanged';

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

export const generateSecret = (): string => randomBytes(24).toString('base64url');

function clientRecord(client: z.output<typeof clientInputSchema>, secretHash: string): ClientRecord {
  return {
    id: client.id,
    secretHash,
    grants: [...new Set(client.grants)].sort(),
    scopes: [...new Set(client.scopes)].sort(),
  };
}

/** Saves the client unless it is stored already with that secret, grants and scopes. */
async function upsertClient(store: AuthStore, hasher: SecretHasher, input: ClientInput): Promise<Change> {
  const client = clientInputSchema.parse(input);
  const existing = await store.getClient(client.id);
  const sameSecret = existing ? await hasher.verify(client.secret, existing.secretHash) : false;
  const record = clientRecord(
    client,
    existing && sameSecret ? existing.secretHash : await hasher.hash(client.secret),
  );
  // The bootstrap file knows nothing of Akismet keys: an issued one stays.
  if (existing?.akismetKeyHash) record.akismetKeyHash = existing.akismetKeyHash;
  if (
    existing &&
    sameSecret &&
    sameList(existing.grants, record.grants) &&
    sameList(existing.scopes, record.scopes)
  )
    return 'unchanged';
  await store.saveClient(record);
  return existing ? 'updated' : 'created';
}

/** Saves the user unless it is stored already with that password and scopes. */
async function upsertUser(store: AuthStore, hasher: SecretHasher, input: UserInput): Promise<Change> {
  const user = userInputSchema.parse(input);
  const scopes = user.scopes && [...new Set(user.scopes)].sort();
  const existing = await store.getUser(user.username);
  const samePassword = existing ? await hasher.verify(user.password, existing.passwordHash) : false;
  const sameScopes =
    existing !== undefined &&
    (scopes === undefined || existing.scopes === undefined
      ? scopes === existing.scopes
      : sameList(existing.scopes, scopes));
  if (existing && samePassword && sameScopes) return 'unchanged';
  await store.saveUser({
    username: user.username,
    passwordHash: existing && samePassword ? existing.passwordHash : await hasher.hash(user.password),
    ...(scopes ? { scopes } : {}),
  });
  return existing ? 'updated' : 'created';
}

/** Clients and users, as the CLI and the bootstrap file manage them. Upserts are idempotent. */
export function createAccounts(store: AuthStore, hasher: SecretHasher) {
  return {
    upsertClient: (input: ClientInput) => upsertClient(store, hasher, input),
    upsertUser: (input: UserInput) => upsertUser(store, hasher, input),
    /**
     * A new client with a generated secret, returned once; undefined when the id is taken, also by a
     * create that ran at the same time (the store writes only a client that does not exist).
     */
    async createClient(input: Omit<ClientInput, 'secret'>): Promise<string | undefined> {
      const secret = generateSecret();
      const client = clientInputSchema.parse({ ...input, secret });
      return (await store.createClient(clientRecord(client, await hasher.hash(secret)))) ? secret : undefined;
    },
    /** Sets a new secret (generated unless given); undefined when there is no such client. */
    async rotateClientSecret(id: string, secret = generateSecret()): Promise<string | undefined> {
      clientSecretSchema.parse(secret);
      const existing = await store.getClient(id);
      if (!existing) return undefined;
      await store.saveClient({ ...existing, secretHash: await hasher.hash(secret) });
      return secret;
    },
    /**
     * Deletes the client and then revokes every token it holds (introspection already reports a removed
     * client's tokens inactive; the revocation also frees their storage and tells the gateway's cache).
     */
    async removeClient(id: string): Promise<boolean> {
      const removed = await store.deleteClient(id);
      if (removed) await revokeClientTokens(store, id);
      return removed;
    },
    removeUser: (username: string) => store.deleteUser(username),
    async listClients() {
      return (await store.listClients()).map(({ id, grants, scopes }) => ({ id, grants, scopes }));
    },
    async listUsers() {
      return (await store.listUsers()).map(({ username, scopes }) => ({
        username,
        ...(scopes ? { scopes } : {}),
      }));
    },
    async apply(
      file: BootstrapFile,
    ): Promise<{ clients: Record<string, Change>; users: Record<string, Change> }> {
      const parsed = bootstrapSchema.parse(file);
      const result = { clients: {} as Record<string, Change>, users: {} as Record<string, Change> };
      for (const client of parsed.clients) result.clients[client.id] = await this.upsertClient(client);
      for (const user of parsed.users) result.users[user.username] = await this.upsertUser(user);
      return result;
    },
  };
}
