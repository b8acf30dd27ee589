import { BATCH_LIMITS, createRequestSchemas, type MailCheckRequest } from '@spam-check/contracts';
import {
  batchRoute,
  checkRoute,
  type CheckMeta,
  createServiceApp,
  type ServiceApp,
  type ServiceBase,
} from '@spam-check/service-kit';
import type { ServiceConfig } from './config';
import { runEmailCheck, type EmailChecker } from './email-checker';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checker: EmailChecker;
}

export function createApp(deps: AppDeps): ServiceApp {
  const schema = createRequestSchemas(deps.config.limits).mail;
  const check = ({ email, context }: MailCheckRequest, meta: CheckMeta) =>
    runEmailCheck(deps.checker, { email, context, ...meta }, 'http');
  return createServiceApp({
    ...deps,
    directRoutes: [
      checkRoute({ item: schema, bodyLimit: deps.config.MAX_BODY_BYTES, check }),
      batchRoute({
        item: schema,
        maxItems: BATCH_LIMITS.mailItems,
        bodyLimit: deps.config.MAX_BATCH_BODY_BYTES,
        // Each address may wait for a DNS answer.
        concurrency: 64,
        check,
      }),
    ],
    routes: (app) => mountFeedbackRoute(app, deps.checker.feedback, deps.config.limits),
  });
}
