import { z } from 'zod';
import { reviewSettingsSchema } from './review';
import type { ValidationRule } from './validation-messages';
import { webhookSecretValueSchema, webhookSchema, webhooksSettingSchema } from './webhooks';

/** The scope of the administration API (docs/design.md, Administration). */
export const ADMIN_SCOPE = 'spam:admin';

/** Scopes an administrator may give a client. */
export const CLIENT_SCOPES = ['spam:check', 'spam:admin'] as const;
export const CLIENT_GRANTS = ['password', 'refresh_token', 'client_credentials'] as const;
/**
 * A client's grants when none are given: a user's (`client_credentials` is opted into, docs/design.md,
 * Tokens).
 */
export const DEFAULT_CLIENT_GRANTS: (typeof CLIENT_GRANTS)[number][] = ['password', 'refresh_token'];

const probability = z.number().min(0).max(1);
const LIST_MAX = 1000;

/** Bounds of a client's site rules (`text_rules`). */
export const SITE_RULE_LIMITS = { languages: 60, maxLinks: 1000 } as const;

const listEntry = z
  .string()
  .trim()
  .min(1)
  .max(254)
  .regex(/^[^\s,]+$/, 'an address (name@example.com) or a domain (example.com), without spaces');

const thresholdFields = {
  spam_threshold: probability
    .optional()
    .describe('Score from which the verdict is spam (0..1); absent: the operator default.'),
  suspicious_threshold: probability
    .optional()
    .describe('Score from which the verdict is suspicious (0..1); absent: the operator default.'),
};

/** When both thresholds are given, suspicious may not exceed spam. */
const orderedThresholds: [
  (value: { spam_threshold?: number | undefined; suspicious_threshold?: number | undefined }) => boolean,
  { path: string[]; params: { rule: ValidationRule } },
] = [
  (value: { spam_threshold?: number | undefined; suspicious_threshold?: number | undefined }) =>
    value.spam_threshold === undefined ||
    value.suspicious_threshold === undefined ||
    value.suspicious_threshold <= value.spam_threshold,
  // The message comes from VALIDATION_RULE_MESSAGES, in the request's language.
  { path: ['suspicious_threshold'], params: { rule: 'thresholds_ordered' } },
];

/** A client's site rules (`text_rules`): they only ever make its verdicts stricter. */
export const textRulesSchema = z
  .strictObject({
    allowed_languages: z
      .array(z.string().regex(/^[a-z]{2}$/, 'an ISO 639-1 code in lower case (de, fr, en, …)'))
      .min(1)
      .max(SITE_RULE_LIMITS.languages)
      .nullable()
      .optional()
      .describe(
        'The languages texts may be written in (ISO 639-1); a text detected in another is at least suspicious (TEXT_LANGUAGE_NOT_ALLOWED). A text whose language cannot be told passes. null or absent: any language.',
      ),
    max_links: z
      .number()
      .int()
      .min(0)
      .max(SITE_RULE_LIMITS.maxLinks)
      .nullable()
      .optional()
      .describe(
        'The most links a text may hold; more is at least suspicious, twice as many (or any link when 0) spam (TEXT_TOO_MANY_LINKS). null or absent: no limit.',
      ),
  })
  .describe(
    "The site's own rules for texts, applied to text checks and the text part of hybrid checks; set by the admin API or by the client itself (`/api/v1/settings/text-rules`).",
  );

/**
 * A client's own settings (docs/design.md, Administration). Every field is optional: an absent one means the
 * operator's default. Unknown fields are refused (400 naming the field), so a misspelt setting never goes
 * unnoticed.
 */
export const clientSettingsSchema = z
  .strictObject({
    mail: z
      .strictObject({
        ...thresholdFields,
        allow: z
          .array(listEntry)
          .max(LIST_MAX)
          .optional()
          .describe('Addresses and domains (with their subdomains) that are never spam for this client.'),
        deny: z
          .array(listEntry)
          .max(LIST_MAX)
          .optional()
          .describe('Addresses and domains (with their subdomains) that are always spam for this client.'),
      })
      .refine(...orderedThresholds)
      .optional(),
    text: z
      .strictObject({
        ...thresholdFields,
        deny_terms: z
          .array(z.string().trim().min(1).max(200))
          .max(LIST_MAX)
          .optional()
          .describe('Terms that make a text spam for this client (case-insensitive, after normalisation).'),
        llm_mode: z
          .enum(['never', 'band', 'always'])
          .optional()
          .describe('When the LLM is asked: never, only when the local stages are unsure (band), or always.'),
      })
      .refine(...orderedThresholds)
      .optional(),
    hybrid: z
      .strictObject({
        step_by_step: z
          .boolean()
          .optional()
          .describe('The mode of a hybrid check sent without X-Internal-Step-By-Step (or with it empty).'),
      })
      .optional(),
    campaigns: z
      .strictObject({
        share: z
          .boolean()
          .optional()
          .describe("Whether this client's spam reports count towards the deployment's campaign memory."),
        protect: z
          .boolean()
          .optional()
          .describe("Whether this client's checks are judged against the campaigns other clients reported."),
      })
      .optional()
      .describe('Campaigns shared between clients (opt-in); absent fields are the operator defaults.'),
    akismet: z
      .strictObject({
        suspicious_as: z
          .enum(['spam', 'ham'])
          .optional()
          .describe('What the Akismet comment-check answers for a suspicious verdict (default spam).'),
      })
      .optional()
      .describe('The Akismet-compatible endpoints (docs/akismet.md).'),
    webhooks: webhooksSettingSchema.optional(),
    text_rules: textRulesSchema.optional(),
    review: reviewSettingsSchema.optional(),
  })
  .describe('Per-client settings; an absent field is the operator default.');
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

/** The answer of a settings `PUT`: a webhook added by it carries its signing secret, this once. */
export const clientSettingsAnswerSchema = clientSettingsSchema.extend({
  webhooks: z
    .array(webhookSchema.extend({ secret: webhookSecretValueSchema.optional() }))
    .optional()
    .describe('The webhooks; `secret` only on those this PUT added.'),
});
export type ClientSettingsAnswer = z.infer<typeof clientSettingsAnswerSchema>;
export type MailSettings = NonNullable<ClientSettings['mail']>;
export type TextSettings = NonNullable<ClientSettings['text']>;
export type TextRules = NonNullable<ClientSettings['text_rules']>;

export const clientIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dot, underscore and hyphen, at most 100')
  // `.` and `..` are path segments, not names: in a URL they resolve to the parent resource.
  .refine((id) => id !== '.' && id !== '..', { params: { rule: 'not_a_path_segment' } })
  .describe('The client id (OAuth client_id).');

/** `POST /admin/clients`: the secret is always generated and shown once in the answer. */
export const createClientRequestSchema = z.object({
  id: clientIdSchema,
  grants: z
    .array(z.enum(CLIENT_GRANTS))
    .min(1)
    .default([...DEFAULT_CLIENT_GRANTS])
    .describe(
      'OAuth grants the client may use. `client_credentials` is for a server acting as itself (no user, no refresh token, never `spam:admin`).',
    ),
  scopes: z.array(z.enum(CLIENT_SCOPES)).min(1).default(['spam:check']),
});
export type CreateClientRequest = z.input<typeof createClientRequestSchema>;

export const adminClientSchema = z.object({
  id: z.string(),
  grants: z.array(z.string()),
  scopes: z.array(z.string()),
});
export type AdminClient = z.infer<typeof adminClientSchema>;

export const clientListSchema = z.object({ clients: z.array(adminClientSchema) });

export const clientWithSecretSchema = adminClientSchema.extend({
  client_secret: z.string().describe('Shown this once; only its scrypt hash is stored.'),
});

export const statsQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }).optional().describe('Start (ISO 8601); default: `to` minus 7 days.'),
  to: z.iso.datetime({ offset: true }).optional().describe('End (ISO 8601); default: now.'),
  interval: z.enum(['hour', 'day']).default('day'),
});

const verdictCounts = z.object({ ham: z.number(), suspicious: z.number(), spam: z.number() });

export const adminActionSchema = z.object({
  at: z.string().describe('When (ISO 8601).'),
  actor: z.object({ client_id: z.string(), username: z.string() }),
  action: z.enum([
    'client.create',
    'client.rotate_secret',
    'client.delete',
    'settings.update',
    'data.erase',
    'webhook.rotate_secret',
    'feedback.report',
    'akismet_key.issue',
    'akismet_key.revoke',
  ]),
  client_id: z
    .string()
    .describe(
      'The client acted on (for the erasure of an address, which concerns every client: the calling client).',
    ),
  status: z.number().describe('The HTTP status of the answer.'),
  request_id: z.string(),
});
export type AdminAction = z.infer<typeof adminActionSchema>;

export const clientStatsSchema = z.object({
  client_id: z.string(),
  from: z.string(),
  to: z.string(),
  interval: z.enum(['hour', 'day']),
  series: z.array(
    z.object({
      start: z.string(),
      checks: z.object({ mail: verdictCounts, text: verdictCounts, hybrid: verdictCounts }),
    }),
  ),
  totals: z.object({ mail: verdictCounts, text: verdictCounts, hybrid: verdictCounts }),
  top_reasons: z.array(z.object({ code: z.string(), count: z.number() })),
  feedback: z.object({ spam: z.number(), ham: z.number() }),
  latency_ms: z.object({
    mail: z.object({ p50: z.number().nullable(), p99: z.number().nullable() }),
    text: z.object({ p50: z.number().nullable(), p99: z.number().nullable() }),
    hybrid: z.object({ p50: z.number().nullable(), p99: z.number().nullable() }),
  }),
  recent_admin_actions: z.array(adminActionSchema),
});
export type ClientStats = z.infer<typeof clientStatsSchema>;

/** `GET /admin/clients/{id}/feedback?limit=`: the newest reports first. */
export const RECENT_FEEDBACK_MAX = 50;
export const recentFeedbackQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(RECENT_FEEDBACK_MAX)
    .default(20)
    .describe(`How many reports, newest first (1..${RECENT_FEEDBACK_MAX}).`),
});

/** One accepted feedback report as kept for the console: never the address or text it was about. */
export const recentFeedbackEntrySchema = z.object({
  at: z.string().describe('When it was accepted (ISO 8601).'),
  id: z.string().describe('The id of the feedback answer.'),
  check_id: z.string().nullable().describe('The check it was about, or null for an address or a text.'),
  label: z.enum(['spam', 'ham']),
  applied_to: z.array(z.enum(['email', 'text'])),
});
export type RecentFeedbackEntry = z.infer<typeof recentFeedbackEntrySchema>;

export const recentFeedbackSchema = z.object({
  client_id: z.string(),
  feedback: z.array(recentFeedbackEntrySchema),
});
export type RecentFeedback = z.infer<typeof recentFeedbackSchema>;
