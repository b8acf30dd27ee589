import { createRequestSchemas } from '@spam-check/contracts';
import { createServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { EmailChecker } from './email-check-deps';
import { mountCheckRoute } from './entry-points/http/check-route';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checker: EmailChecker;
}

export function createApp(deps: AppDeps): Express {
  return createServiceApp({
    ...deps,
    routes: (app) => {
      mountCheckRoute(app, deps.checker, createRequestSchemas(deps.config.limits).mail);
      mountFeedbackRoute(app, deps.checker.feedback, deps.config.limits);
    },
  });
}
