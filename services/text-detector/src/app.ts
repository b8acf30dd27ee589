import { BATCH_LIMITS, createRequestSchemas, type TextCheckRequest } from '@spam-check/contracts';
import {
  batchRoute,
  checkRoute,
  type CheckMeta,
  createServiceApp,
  mountErasureRoute,
  type Eraser,
  type ServiceApp,
  type ServiceBase,
} from '@spam-check/service-kit';
import { llmEndpointHost, type ServiceConfig } from './config';
import type { CheckClientText, createTextLearner } from './domain/check-text';
import type { TextFeedbackStore } from './data-access/text-feedback-store';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checkText: CheckClientText;
  feedback: TextFeedbackStore;
  learnText: ReturnType<typeof createTextLearner>;
  eraser: Eraser;
}

export function createApp(deps: AppDeps): ServiceApp {
  const schema = createRequestSchemas(deps.config.limits).text;
  // Not `{ ...item, ...meta }`: a spread followed by more gives each check a hidden class of its own on Node 20
  // (service-kit README, "Per-request objects").
  const check = (item: TextCheckRequest, meta: CheckMeta) => deps.checkText(Object.assign({}, item, meta));
  return createServiceApp({
    ...deps,
    directRoutes: [
      checkRoute({ item: schema, bodyLimit: deps.config.MAX_BODY_BYTES, check }),
      batchRoute({
        item: schema,
        maxItems: BATCH_LIMITS.textItems,
        bodyLimit: deps.config.MAX_BATCH_BODY_BYTES,
        // Each text may wait for the LLM.
        concurrency: 8,
        check,
      }),
    ],
    routes: (app) => {
      mountFeedbackRoute(app, deps.feedback, deps.learnText, deps.config.limits);
      mountErasureRoute(app, deps.eraser);
      const llm = { endpoint_host: llmEndpointHost(deps.config) };
      app.get('/v1/llm', (_req, res) => {
        res.json(llm);
      });
    },
  });
}
