import { z } from 'zod';

/**
 * What the auth service publishes on its revocation channel (`AUTH_REVOCATION_CHANNEL`) and the gateway reads
 * to evict revoked tokens from its introspection cache (services/auth README, "Revocation messages").
 */
export const revocationMessageSchema = z.object({
  type: z.literal('revocation'),
  reason: z.enum(['revoked', 'refresh_token_reuse']),
  /** Lowercase hex SHA-256 of each revoked access token: the key of the gateway's cache. May be empty. */
  access_token_sha256: z.array(z.string()),
  /** Unix seconds. */
  revoked_at: z.number().int(),
});
export type RevocationMessage = z.infer<typeof revocationMessageSchema>;
