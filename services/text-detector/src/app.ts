import { BATCH_LIMITS, createRequestSchemas } from '@spam-check/contracts';
import { createServiceApp, mountBatchRoute, type ServiceBase } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { CheckClientText } from './dependencies';
import type { createTextLearner } from './domain/check-text';
import type { TextFeedbackStore } from './data-access/text-feedback-store';
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
    beforeBodyParser: (app) =>
      mountBatchRoute(app, {
        item: schema,
        maxItems: BATCH_LIMITS.textItems,
        bodyLimit: deps.config.MAX_BATCH_BODY_BYTES,
        // Each text may wait for the LLM.
        concurrency: 8,
        check: (item, meta) => deps.checkText({ ...item, ...meta }),
      }),
    routes: (app) => {
      mountCheckRoute(app, deps.checkText, schema);
      mountFeedbackRoute(app, deps.feedback, deps.learnText, deps.config.limits);
    },
  });
}
