import { BATCH_LIMITS, createRequestSchemas } from '@spam-check/contracts';
import { batchRoute, createServiceApp, type ServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { ServiceConfig } from './config';
import type { CheckClientText, createTextLearner } from './domain/check-text';
import type { TextFeedbackStore } from './data-access/text-feedback-store';
import { checkRoute } from './entry-points/http/check-route';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checkText: CheckClientText;
  feedback: TextFeedbackStore;
  learnText: ReturnType<typeof createTextLearner>;
}

export function createApp(deps: AppDeps): ServiceApp {
  const schema = createRequestSchemas(deps.config.limits).text;
  return createServiceApp({
    ...deps,
    directRoutes: [
      checkRoute(deps.checkText, schema, deps.config.MAX_BODY_BYTES),
      batchRoute({
        item: schema,
        maxItems: BATCH_LIMITS.textItems,
        bodyLimit: deps.config.MAX_BATCH_BODY_BYTES,
        // Each text may wait for the LLM.
        concurrency: 8,
        check: (item, meta) => deps.checkText({ ...item, ...meta }),
      }),
    ],
    routes: (app) => mountFeedbackRoute(app, deps.feedback, deps.learnText, deps.config.limits),
  });
}
