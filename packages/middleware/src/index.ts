export {
  checkSubmission,
  type SpamCheckOptions,
  type Submission,
  type SubmissionLog,
  type SubmissionOutcome,
} from './check-submission';
export { spamCheck, type MiddlewareOptions } from './express';
export {
  DEFAULT_HONEYPOT_FIELD,
  DEFAULT_TIMESTAMP_FIELD,
  formFields,
  secondsSinceRender,
  signRenderTime,
  type FieldNames,
} from './form-fields';
export { verifyWebhook, WebhookVerificationError, type WebhookEventBody } from './verify-webhook';
