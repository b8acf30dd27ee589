import { clientIdSchema, type AdminClient, type ClientSettings, type Language } from '@spam-check/contracts';
import { AppError, isAppError, parseBody, type Logger } from '@spam-check/service-kit';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { consoleApi } from './api';
import { expectOk } from './api-answers';
import { assetRoute } from './assets';
import { renderClientPage, type ClientPageOptions } from './client-view';
import { akismetKeyRoutes } from './akismet-key';
import { checkOrigin, formBody, securityHeaders } from './guards';
import { clientsPage, signInPage } from './pages';
import type { ConsoleSessionStore } from './session-store';
import { consoleSessions, type SessionPolicy } from './sessions';
import { settingsFormSchema, settingsFromForm } from './settings-form';
import { consoleTokenClient, SignInRefused } from './tokens';
import { tryFormSchema, tryRequest, tryResult } from './try-check';
import { send, views, type ConsoleDeps, type SignedInView } from './view';
import { reviewRoutes } from './review-routes';
import { webhookRoutes } from './webhook-routes';

export interface ConsoleOptions {
  /**
   * The API's public base URL (`https://spam-check.example.com`), or how to find it from a request: the
   * gateway gives its own listener as the request reached it.
   */
  apiUrl: string | ((req: Request) => string);
  /** The console's OAuth client (password and refresh_token grants, scope `spam:admin`). */
  client: { id: string; secret: string };
  /** Where sessions live: `redisConsoleSessions` (replicas share them) or `memoryConsoleSessions`. */
  sessionStore: ConsoleSessionStore;
  session: SessionPolicy;
  languages: readonly Language[];
  /** The largest form accepted (bytes). */
  maxBodyBytes: number;
  /** Proxies in front whose `X-Forwarded-For` is believed (the browser's address for sign-in limits). */
  trustedProxyHops: number;
  /** Deadlines of the token calls and of the admin API calls. */
  timeoutMs: { token: number; api: number };
  logger: Logger;
  /** Where the LLM stage sends texts (shown on the clients page); unknown when not given. */
  llmEndpoint?: () => Promise<string | null | undefined>;
}

const clientQuery = z.object({
  interval: z.enum(['day', 'hour']).default('day'),
  saved: z.literal('1').optional(),
});
const signInForm = z.object({ username: z.string().min(1).max(200), password: z.string().min(1).max(1000) });

function signInRoutes(router: Router, deps: ConsoleDeps, view: ReturnType<typeof views>) {
  const form = formBody(deps.maxBodyBytes);
  router.get(
    '/',
    view.open((_req, res, { ctx }) => res.redirect(303, `${ctx.base}/clients`)),
  );
  router.get(
    '/sign-in',
    view.open((_req, res, { ctx }) => void send(res, 200, signInPage(ctx))),
  );
  router.post(
    '/sign-in',
    form,
    view.open(async (req, res, { ctx, meta }) => {
      checkOrigin(req);
      const body = req.body as Record<string, unknown> | undefined;
      const credentials = signInForm.safeParse(body ?? {});
      const username = typeof body?.username === 'string' ? body.username.slice(0, 200) : '';
      if (!credentials.success)
        return void send(res, 400, signInPage(ctx, { message: 'signInFailed', username }));
      try {
        const { username: name, password } = credentials.data;
        await deps.sessions.start(req, res, name, await deps.tokens.signIn(name, password, meta), meta);
        res.redirect(303, `${ctx.base}/clients`);
      } catch (error) {
        if (!(error instanceof SignInRefused)) throw error;
        const throttled = error.reason === 'throttled';
        if (throttled) res.set('Retry-After', '60');
        const message = throttled ? 'signInThrottled' : 'signInFailed';
        send(res, throttled ? 429 : 401, signInPage(ctx, { message, username }));
      }
    }),
  );
  router.post(
    '/sign-out',
    form,
    view.page(async (_req, res, signedIn) => {
      await deps.sessions.end(res, signedIn.signedIn, signedIn.meta);
      res.redirect(303, `${signedIn.ctx.base}/sign-in`);
    }),
  );
}

function clientRoutes(router: Router, deps: ConsoleDeps, view: ReturnType<typeof views>) {
  const form = formBody(deps.maxBodyBytes);
  const clientId = (req: Request, v: SignedInView) =>
    parseBody(z.object({ id: clientIdSchema }), req.params, v.ctx.language).id;
  const render = async (
    req: Request,
    res: Response,
    v: SignedInView,
    options: ClientPageOptions & { status?: number } = {},
  ) => {
    const page = await renderClientPage(deps.api, view.apiMeta(v), v.ctx, clientId(req, v), options);
    send(res, options.status ?? 200, page);
  };

  router.get(
    '/clients',
    view.page(async (_req, res, v) => {
      const answer = await deps.api('GET', '/api/v1/admin/clients', view.apiMeta(v));
      const { clients } = expectOk<{ clients: AdminClient[] }>(answer);
      send(res, 200, clientsPage(v.ctx, clients, await deps.llmEndpoint()));
    }),
  );
  router.get(
    '/clients/:id',
    view.page(async (req, res, v) => {
      const query = parseBody(clientQuery, req.query, v.ctx.language);
      await render(req, res, v, { interval: query.interval, saved: query.saved === '1' });
    }),
  );
  router.post(
    '/clients/:id/settings',
    form,
    view.page(async (req, res, v) => {
      const id = clientId(req, v);
      const values = parseBody(settingsFormSchema, req.body, v.ctx.language) as Record<string, string>;
      const path = `/api/v1/admin/clients/${encodeURIComponent(id)}/settings`;
      // The webhooks have their own page: the settings form keeps them as they are.
      const { webhooks } = expectOk<ClientSettings>(await deps.api('GET', path, view.apiMeta(v)));
      const document = { ...settingsFromForm(values), ...(webhooks ? { webhooks } : {}) };
      const answer = await deps.api('PUT', path, view.apiMeta(v), document);
      if (answer.status === 400) {
        const problem = answer.body as { errors?: { path: string; message: string }[] };
        const errors = Object.fromEntries(
          (problem.errors ?? [{ path: '(body)', message: '' }]).map((e) => [e.path, e.message]),
        );
        return render(req, res, v, { status: 400, settingsForm: values, settingsErrors: errors });
      }
      expectOk(answer);
      res.redirect(303, `${v.ctx.base}/clients/${encodeURIComponent(id)}?saved=1#settings`);
    }),
  );
  router.post('/clients/:id/try', form, view.page(tryIt(deps, view, clientId, render)));
  akismetKeyRoutes(router, deps, view, form);
}

/** "Try it": the admin API's trial check as the client; its field errors shown next to the fields. */
function tryIt(
  deps: ConsoleDeps,
  view: ReturnType<typeof views>,
  clientId: (req: Request, v: SignedInView) => string,
  render: (
    req: Request,
    res: Response,
    v: SignedInView,
    options: ClientPageOptions & { status?: number },
  ) => Promise<void>,
) {
  return async (req: Request, res: Response, v: SignedInView) => {
    const id = clientId(req, v);
    const values = parseBody(tryFormSchema, req.body, v.ctx.language);
    const shown = Object.fromEntries(
      Object.entries(values).filter(([, value]) => typeof value === 'string'),
    ) as Record<string, string>;
    const { kind, body } = tryRequest(values);
    const path = `/api/v1/admin/clients/${encodeURIComponent(id)}/try/${kind}`;
    try {
      const answer = expectOk(await deps.api('POST', path, view.apiMeta(v), body));
      await render(req, res, v, { tryIt: { values: shown, result: tryResult(kind, answer) } });
    } catch (error) {
      if (!isAppError(error) || error.code !== 'VALIDATION_FAILED') throw error;
      const errors = Object.fromEntries((error.errors ?? []).map((e) => [e.path, e.message]));
      await render(req, res, v, { status: 400, tryIt: { values: shown, errors } });
    }
  };
}

/**
 * The operator console (docs/design.md, Console and API reference) as an Express router for `/console` and
 * `/<lang>/console`: server-rendered pages over the public admin API. What is decided where: sessions in
 * `sessions.ts`, CSRF and headers in `guards.ts`, answers and errors in `view.ts`, markup in `pages.ts` and
 * `client-page.ts`, the settings form in `settings-form.ts`, "try it" in `try-check.ts`. The host app must be
 * a service-kit app (`createServiceApp`): the console reads its request context and leaves problem answers to
 * it.
 */
export function consoleRouter(options: ConsoleOptions): Router {
  const tokens = consoleTokenClient({
    timeoutMs: options.timeoutMs.token,
    client: options.client,
  });
  const deps: ConsoleDeps = {
    languages: options.languages,
    maxBodyBytes: options.maxBodyBytes,
    trustedProxyHops: options.trustedProxyHops,
    apiUrl: typeof options.apiUrl === 'string' ? () => options.apiUrl as string : options.apiUrl,
    sessions: consoleSessions(options.sessionStore, tokens, options.session, options.logger),
    tokens,
    api: consoleApi(options.timeoutMs.api),
    llmEndpoint: options.llmEndpoint ?? (async () => undefined),
  };
  const view = views(deps);
  const router = Router({ mergeParams: true });
  router.use(securityHeaders);
  router.get('/assets/:file', assetRoute());
  signInRoutes(router, deps, view);
  clientRoutes(router, deps, view);
  webhookRoutes(router, deps, view);
  reviewRoutes(router, deps, view);
  const notFound: RequestHandler = view.open(() => {
    throw new AppError('NOT_FOUND');
  });
  router.use(notFound);
  const mounted = Router();
  mounted.use('/console', router);
  mounted.use('/:lang/console', router);
  return mounted;
}
