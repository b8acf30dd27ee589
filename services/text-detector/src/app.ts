import { createRequestSchemas } from '@spam-check/contracts';
import { createServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { CheckClientText } from './dependencies';
import type { createTextLearner } from './domain/check-text';
import type { TextFeedbackStore } from './data-access/text-feedback-store';
import { mountBatchRoute } from './entry-points/http/batch-route';
import { mountCheckRoute } from './entry-points/http/check-route';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checkText: CheckClientText;
  feedback: TextFeedbackStore;
  learnText: ReturnType<typeof createTextLearner>;
}

export function createApp(deps: AppDeps): Express {
  const schema = createRequestSchemas(deps.config.limits).text;
  return createServiceApp({
    ...deps,
    beforeBodyParser: (app) => mountBatchRoute(app, deps.checkText, schema, deps.config.MAX_BATCH_BODY_BYTES),
    routes: (app) => {
      mountCheckRoute(app, deps.checkText, schema);
      mountFeedbackRoute(app, deps.feedback, deps.learnText, deps.config.limits);
    },
  });
}
