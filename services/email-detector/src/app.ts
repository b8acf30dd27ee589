import { createRequestSchemas } from '@spam-check/contracts';
import { createServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { EmailChecker } from './email-check-deps';
import { mountBatchRoute } from './entry-points/http/batch-route';
import { mountCheckRoute } from './entry-points/http/check-route';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checker: EmailChecker;
}

export function createApp(deps: AppDeps): Express {
  const schema = createRequestSchemas(deps.config.limits).mail;
  return createServiceApp({
    ...deps,
    beforeBodyParser: (app) => mountBatchRoute(app, deps.checker, schema, deps.config.MAX_BATCH_BODY_BYTES),
    routes: (app) => {
      mountCheckRoute(app, deps.checker, schema);
      mountFeedbackRoute(app, deps.checker.feedback, deps.config.limits);
    },
  });
}
