import { BATCH_LIMITS, createRequestSchemas, type MailCheckRequest } from '@spam-check/contracts';
import { checkRoutes, type CheckMeta, mountErasureRoute } from '@spam-check/detector-kit';
import { createServiceApp, type ServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { ServiceConfig } from './config';
import type { CheckClientEmail } from './domain/check-for-client';
import type { EmailFeedback } from './domain/reports';
import { mountFeedbackRoute } from './entry-points/http/feedback-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checker: { checkEmail: CheckClientEmail; feedback: EmailFeedback };
}

export function createApp(deps: AppDeps): ServiceApp {
  const schema = createRequestSchemas(deps.config.limits).mail;
  const check = ({ email, context }: MailCheckRequest, meta: CheckMeta) =>
    deps.checker.checkEmail({ email, context, ...meta }, 'http');
  // Each address may wait for a DNS answer: many of a batch at once.
  const batches = { maxItems: BATCH_LIMITS.mailItems, concurrency: 64 };
  return createServiceApp({
    ...deps,
    hotRoutes: checkRoutes({ item: schema, check, ...batches }, deps.config),
    routes: (app) => {
      const { feedback } = deps.checker;
      mountFeedbackRoute(app, feedback, deps.config.limits);
      mountErasureRoute(app, {
        address: async (email) => ({ ...(await feedback.eraseAddress(email)) }),
        client: async (clientId) => ({ ...(await feedback.eraseClient(clientId)) }),
      });
    },
  });
}
