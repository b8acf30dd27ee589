import { BATCH_LIMITS, createRequestSchemas, type TextCheckRequest } from '@spam-check/contracts';
import { checkRoutes, type CheckMeta, mountErasureRoute, type Eraser } from '@spam-check/detector-kit';
import { createServiceApp, type ServiceApp, type ServiceBase } from '@spam-check/service-kit';
import { llmEndpointHost, type ServiceConfig } from './config';
import type { CheckClientText } from './domain/check-for-client';
import type { createTextLearner } from './domain/check-text';
import type { ReportsInTurn } from './domain/client-reports';
import type { LearnFromReports } from './domain/learn-from-report';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checkText: CheckClientText;
  feedback: LearnFromReports;
  learnText: ReturnType<typeof createTextLearner>;
  reports: ReportsInTurn;
  eraser: Eraser;
}

export function createApp(deps: AppDeps): ServiceApp {
  const schema = createRequestSchemas(deps.config.limits).text;
  const check = (item: TextCheckRequest, meta: CheckMeta) => deps.checkText(Object.assign({}, item, meta));
  // Each text may wait for the LLM: a few of a batch at once.
  const batches = { maxItems: BATCH_LIMITS.textItems, concurrency: 8 };
  return createServiceApp({
    ...deps,
    hotRoutes: checkRoutes({ item: schema, check, ...batches }, deps.config),
    routes: (app) => {
      mountFeedbackRoute(app, deps, deps.config.limits);
      mountErasureRoute(app, deps.eraser);
      const llm = { endpoint_host: llmEndpointHost(deps.config) };
      app.get('/v1/llm', (_req, res) => {
        res.json(llm);
      });
    },
  });
}
