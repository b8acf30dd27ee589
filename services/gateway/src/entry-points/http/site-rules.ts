import { textRulesSchema, type ClientSettings } from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { AppError, parseBody, requestContext } from '@spam-check/service-kit';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { callerOf } from './authenticate';

const SITE_RULES_PATH = '/api/v1/settings/text-rules';

export interface SiteRulesDeps {
  /** Bearer validation (`spam:check`) and the client's rate limit; then the JSON body parser for `PUT`. */
  guards: RequestHandler[];
  jsonBody: RequestHandler;
  /** Absent without Redis (embedded mode): the rules then answer 503, as the admin API's settings do. */
  settings: ClientSettingsStore | undefined;
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function store(deps: SiteRulesDeps): ClientSettingsStore {
  if (!deps.settings)
    throw new AppError('SERVICE_UNAVAILABLE', { internal: 'client settings need REDIS_URL (embedded mode)' });
  return deps.settings;
}

/**
 * `GET` / `PUT /api/v1/settings/text-rules`: the calling client's own site rules (`text_rules` of its
 * settings, docs/admin.md), so that a site's plugin can set them with the `spam:check` token it checks with.
 * Rules: the client is the token's, never one named in the request; `PUT` replaces the rules and keeps the
 * rest of the settings, which stay the operator's (admin API); the rules can only make the client's own
 * verdicts stricter, so no more than `spam:check` is asked.
 */
export function siteRulesRouter(deps: SiteRulesDeps): Router {
  const router = Router();
  router.get(SITE_RULES_PATH, ...deps.guards, async (_req: Request, res: Response) => {
    const settings = await store(deps).read(callerOf(res).clientId);
    res.set(NO_STORE).json(settings.text_rules ?? {});
  });
  router.put(SITE_RULES_PATH, ...deps.guards, deps.jsonBody, async (req: Request, res: Response) => {
    const settings = store(deps);
    const { clientId } = callerOf(res);
    const context = requestContext(res);
    const rules = parseBody(textRulesSchema, req.body, context.language);
    const document: ClientSettings = { ...(await settings.read(clientId)), text_rules: rules };
    await settings.put(clientId, document);
    context.log.info({ client_id: clientId, setting: 'text_rules' }, 'site rules set by the client');
    res.set(NO_STORE).json(rules);
  });
  router.all(SITE_RULES_PATH, (_req, res, next) => {
    res.setHeader('Allow', 'GET, PUT');
    next(new AppError('METHOD_NOT_ALLOWED'));
  });
  return router;
}
