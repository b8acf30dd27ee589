import { createRequestSchemas } from '@spam-check/contracts';
import { createServiceApp, type ServiceBase } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { ServiceConfig } from './config';
import type { CheckClientText } from './dependencies';
import { mountCheckRoute } from './entry-points/http/check-route';

export interface AppDeps extends ServiceBase<ServiceConfig> {
  checkText: CheckClientText;
}

export function createApp(deps: AppDeps): Express {
  return createServiceApp({
    ...deps,
    routes: (app) => mountCheckRoute(app, deps.checkText, createRequestSchemas(deps.config.limits).text),
  });
}
