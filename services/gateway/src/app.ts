import { OAUTH_METADATA_PATH } from '@spam-check/contracts';
import { AppError, createServiceApp, postRoute, type ServiceApp } from '@spam-check/service-kit';
import type { AppDeps } from './app-deps';
import { ADMIN_PREFIX } from './entry-points/http/admin-routes';
import { AKISMET_PREFIX } from './entry-points/http/akismet-routes';
import { mountDocs } from './entry-points/http/docs';
import { languagePrefixRewriter } from './entry-points/http/language-prefix';
import { routeHandlers } from './route-handlers';

/**
 * The public entry. Order per check request: language prefix (before the kit reads the language), bearer
 * token, rate limit, body (mail and text: type and size only, forwarded as bytes; hybrid: parsed and
 * validated), then the detectors. The mail and text checks are the kit's hot routes, matched first. Every
 * route reads its own body (or streams it, or has its own limit); anything
 * else is 404 at the end, before the kit's JSON body parser could answer 415 or 413.
 */
export function createApp(deps: AppDeps): ServiceApp {
  const h = routeHandlers(deps);
  const app = createServiceApp({
    ...deps,
    // The public listener: /readyz and /metrics are on GATEWAY_MANAGEMENT_PORT (see the README).
    probesOnManagementPort: true,
    hotRoutes: (router) => {
      postRoute(router, '/api/v1/spam/mail', h.checks.mail);
      postRoute(router, '/api/v1/spam/text', h.checks.text);
    },
    beforeBodyParser: (app) => {
      mountDocs(app);
      postRoute(app, '/api/v1/spam/hybrid-check', h.authenticated, h.limited, h.jsonBody, ...h.hybrid);
      postRoute(app, '/api/v1/spam/feedback', h.authenticated, h.limited, h.jsonBody, h.feedback);
      app.get('/api/v1/checks', h.authenticated, h.limited, h.checkList);
      app.all('/api/v1/checks', (_req, res, next) => {
        res.setHeader('Allow', 'GET, HEAD');
        next(new AppError('METHOD_NOT_ALLOWED'));
      });
      postRoute(app, '/api/v1/spam/mail/batch', h.authenticated, h.batchBody, h.batches.mail);
      postRoute(app, '/api/v1/spam/text/batch', h.authenticated, h.batchBody, h.batches.text);
      postRoute(app, '/oauth/token', h.oauth);
      postRoute(app, '/oauth/revoke', h.oauth);
      app.use(AKISMET_PREFIX, h.akismet);
      app.get(OAUTH_METADATA_PATH, h.oauthMetadata);
      app.all(OAUTH_METADATA_PATH, (_req, res, next) => {
        res.setHeader('Allow', 'GET, HEAD');
        next(new AppError('METHOD_NOT_ALLOWED'));
      });
      app.use(ADMIN_PREFIX, h.admin);
      app.use(h.siteRules);
      if (h.console) app.use(h.console);
      app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
    },
  });
  // Before the kit reads the request's language, and before it picks the route.
  const rewriteLanguagePrefix = languagePrefixRewriter(deps.config.LANGUAGES);
  return (req, res) => {
    rewriteLanguagePrefix(req);
    app(req, res);
  };
}
