import { createServiceApp, type Logger, type Metrics, type Readiness } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { EmailChecker } from './email-check-deps';
import { mountCheckRoute } from './entry-points/http/check-route';

export interface AppDeps {
  config: ServiceConfig;
  logger: Logger;
  metrics: Metrics;
  readiness: Readiness;
  checker: EmailChecker;
}

export function createApp(deps: AppDeps): Express {
  return createServiceApp({
    logger: deps.logger,
    metrics: deps.metrics,
    readiness: deps.readiness,
    config: deps.config,
    routes: (app) => mountCheckRoute(app, deps.checker),
  });
}
