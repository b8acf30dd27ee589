import { createServiceApp, type Logger, type Metrics, type Readiness } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { CheckText } from './domain/check-text';
import { mountCheckRoute } from './entry-points/http/check-route';

export interface AppDeps {
  config: ServiceConfig;
  logger: Logger;
  metrics: Metrics;
  readiness: Readiness;
  checkText: CheckText;
}

export function createApp(deps: AppDeps): Express {
  return createServiceApp({
    logger: deps.logger,
    metrics: deps.metrics,
    readiness: deps.readiness,
    config: deps.config,
    routes: (app) => mountCheckRoute(app, deps.checkText),
  });
}
