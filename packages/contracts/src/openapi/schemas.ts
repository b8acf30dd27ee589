/** The named component schemas of the OpenAPI document and the helpers that point at them. */
import { z } from 'zod';
import {
  adminActionSchema,
  adminClientSchema,
  recentFeedbackSchema,
  clientListSchema,
  clientSettingsSchema,
  clientStatsSchema,
  clientWithSecretSchema,
  createClientRequestSchema,
  textRulesSchema,
} from '../admin';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors';
import { oauthErrorSchema, revokeRequestSchema, tokenRequestSchema, tokenResponseSchema } from '../oauth';
import { problemSchema } from '../problem';
import { erasureResultSchema, erasureSchemas } from '../erasure';
import { feedbackResultSchema, feedbackSchemas } from '../feedback';
import { batchSchemas, mailBatchResultSchema, textBatchResultSchema } from '../batch';
import { requestSchemas } from '../requests';
import { hybridResultSchema, mailResultSchema, reasonSchema, textResultSchema } from '../results';
import {
  checkListSchema,
  feedbackReportsResultSchema,
  feedbackReportsSchema,
  reviewItemSchema,
} from '../review';

const NAMED_SCHEMAS = {
  MailCheckRequest: requestSchemas.mail,
  TextCheckRequest: requestSchemas.text,
  HybridCheckRequest: requestSchemas.hybrid,
  MailResult: mailResultSchema,
  TextResult: textResultSchema,
  HybridResult: hybridResultSchema,
  FeedbackRequest: feedbackSchemas.request,
  FeedbackResult: feedbackResultSchema,
  MailBatchRequest: batchSchemas.mail.request,
  TextBatchRequest: batchSchemas.text.request,
  MailBatchResult: mailBatchResultSchema,
  TextBatchResult: textBatchResultSchema,
  Reason: reasonSchema,
  Problem: problemSchema,
  TokenRequest: tokenRequestSchema,
  TokenResponse: tokenResponseSchema,
  RevokeRequest: revokeRequestSchema,
  OAuthError: oauthErrorSchema,
  ClientSettings: clientSettingsSchema,
  TextRules: textRulesSchema,
  CreateClientRequest: createClientRequestSchema,
  AdminClient: adminClientSchema,
  ClientList: clientListSchema,
  ClientWithSecret: clientWithSecretSchema,
  ClientStats: clientStatsSchema,
  AdminAction: adminActionSchema,
  RecentFeedback: recentFeedbackSchema,
  ErasureRequest: erasureSchemas.request,
  ErasureResult: erasureResultSchema,
  ReviewItem: reviewItemSchema,
  CheckList: checkListSchema,
  FeedbackReports: feedbackReportsSchema,
  FeedbackReportsResult: feedbackReportsResultSchema,
} satisfies Record<string, z.ZodType>;

export type SchemaName = keyof typeof NAMED_SCHEMAS;

export function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  });
  for (const schema of Object.values(schemas)) delete (schema as { $schema?: string }).$schema;
  return schemas;
}

export const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

export function problemResponse(codes: ErrorCode[]) {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].detail.en}`).join(' '),
    content: { 'application/problem+json': { schema: ref('Problem') } },
  };
}
