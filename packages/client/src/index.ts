export {
  SpamCheckClient,
  type SpamCheckClientOptions,
  type CheckOptions,
  type HybridOptions,
  type CheckListQuery,
} from './client';
export { SpamCheckError, isSpamCheckError, type TransportErrorCode } from './errors';
export { DEFAULT_RETRY, retryAfterSeconds, type Answer, type CallOptions, type RetryPolicy } from './http';
export { apiRequest, type ApiRequestOptions } from './request';
export {
  TokenSession,
  REFRESH_MARGIN_MS,
  basicAuthorization,
  type ClientCredentials,
  type StoredTokens,
  type UserCredentials,
} from './tokens';
/** The kinds of form a submission can come from (`context.form_type`). */
export { FORM_TYPES } from '@spam-check/contracts';
export type {
  CheckList,
  FeedbackByCheck,
  FeedbackReportsResult,
  ReviewItem,
  FeedbackLabel,
  FeedbackRequest,
  FeedbackResult,
  FormContext,
  FormType,
  HybridCheckRequest,
  HybridResult,
  Language,
  MailBatchRequest,
  MailBatchResult,
  MailCheckRequest,
  MailResult,
  Problem,
  Reason,
  TextBatchRequest,
  TextBatchResult,
  TextCheckRequest,
  TextResult,
} from '@spam-check/contracts';
