import { BATCH_LIMITS, createRequestSchemas } from '@spam-check/contracts';
import { batchRoute, createServiceApp, type ServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { ServiceConfig } from './config';
import { runEmailCheck, type EmailChecker } from './email-checker';
import { checkRoute } from './entry-points/http/check-route';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checker: EmailChecker;
}

export function createApp(deps: AppDeps): ServiceApp {
  const schema = createRequestSchemas(deps.config.limits).mail;
  return createServiceApp({
    ...deps,
    directRoutes: [
      checkRoute(deps.checker, schema, deps.config.MAX_BODY_BYTES),
      batchRoute({
        item: schema,
        maxItems: BATCH_LIMITS.mailItems,
        bodyLimit: deps.config.MAX_BATCH_BODY_BYTES,
        // Each address may wait for a DNS answer.
        concurrency: 64,
        check: ({ email }, meta) => runEmailCheck(deps.checker, { email, ...meta }, 'http'),
      }),
    ],
    routes: (app) => mountFeedbackRoute(app, deps.checker.feedback, deps.config.limits),
  });
}
