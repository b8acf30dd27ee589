import { readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import {
  clientIdSchema,
  errorStatus,
  type AdminClient,
  type CheckLimits,
  type ErrorCode,
  type Language,
} from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { AppError, clientAddress, isAppError, parseBody, requestContext } from '@spam-check/service-kit';
import { Router, type Express, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { ConsoleApi } from '../../../data-access/console-api';
import {
  SignInRefused,
  type ConsoleTokenClient,
  type TokenCallMeta,
} from '../../../data-access/console-tokens';
import type { DetectorTransport } from '../../../domain/hybrid-check';
import { checkCsrfToken, checkOrigin, formBody, securityHeaders } from './guards';
import { SessionEnded, expectOk } from './api-answers';
import { renderClientPage, type ClientPageOptions } from './client-view';
import { clientsPage, errorPage, signInPage, type PageContext } from './pages';
import type { ConsoleSessions, SignedIn } from './session';
import { settingsFormSchema, settingsFromForm } from './settings-form';
import { tryCheck, tryFormSchema } from './try-check';

export interface ConsoleDeps {
  languages: readonly Language[];
  maxBodyBytes: number;
  trustedProxyHops: number;
  sessions: ConsoleSessions;
  tokens: ConsoleTokenClient;
  api: ConsoleApi;
  limits: CheckLimits;
  transports: { parallel: DetectorTransport; stepByStep: DetectorTransport };
  settings: ClientSettingsStore | undefined;
  /** The LLM stage's host, null when off, undefined when unknown (docs/privacy.md). */
  llmEndpoint: () => Promise<string | null | undefined>;
}

/** Static files: the console's script and style, and uPlot from node_modules (no CDN). */
const ASSET_FILES: Record<string, { file: string; type: string }> = {
  'console.js': { file: join(__dirname, '../../../../public/console/console.js'), type: 'text/javascript' },
  'console.css': { file: join(__dirname, '../../../../public/console/console.css'), type: 'text/css' },
  'uPlot.iife.min.js': { file: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript' },
  'uPlot.min.css': { file: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css' },
};

interface View {
  ctx: PageContext;
  meta: TokenCallMeta;
  signedIn?: SignedIn;
}

const clientQuery = z.object({
  interval: z.enum(['day', 'hour']).default('day'),
  saved: z.literal('1').optional(),
});
const signInForm = z.object({ username: z.string().min(1).max(200), password: z.string().min(1).max(1000) });

const wantsHtml = (req: Request) => req.accepts(['json', 'html']) === 'html';

/** The gateway's own listener as this request reached it, for the console's loopback API calls. */
function selfUrl(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${isIPv6(address) ? `[${address}]` : address}:${req.socket.localPort}`;
}

/**
 * `/console` and `/<lang>/console` (DESIGN.md §6.4): server-rendered pages over the admin API. What is
 * decided where: sessions in `session.ts`, CSRF and headers in `guards.ts`, markup in `pages.ts`, the
 * settings form in `settings-form.ts`, "try it" in `try-check.ts`.
 */
export function mountConsole(app: Express, deps: ConsoleDeps): void {
  const router = Router({ mergeParams: true });
  const form = formBody(deps.maxBodyBytes);
  // Read once when the app is built: a missing file fails the start, not a page.
  const assets = new Map(
    Object.entries(ASSET_FILES).map(([name, { file, type }]) => [name, { type, bytes: readFileSync(file) }]),
  );

  const contextOf = (req: Request, res: Response): View => {
    const param = (req.params as { lang?: string }).lang;
    if (param !== undefined && !(deps.languages as readonly string[]).includes(param))
      throw new AppError('NOT_FOUND');
    const context = requestContext(res);
    const language = (param as Language | undefined) ?? context.language;
    return {
      ctx: {
        language,
        languages: deps.languages,
        base: param === undefined ? '/console' : `/${param}/console`,
        // The language switch links the page shown: a form's answer is its client's page.
        here: req.path === '/' ? '' : req.path.replace(/\/(settings|try)$/, ''),
      },
      meta: {
        requestId: context.requestId,
        language,
        clientAddress: clientAddress(req, deps.trustedProxyHops),
      },
    };
  };

  const send = (res: Response, status: number, page: string) =>
    res.status(status).set({ 'Cache-Control': 'no-store' }).type('html').send(page);

  /** Pages and changes: a session first (else sign-in or 401), then a synchronizer token on changes. */
  const page =
    (
      handler: (req: Request, res: Response, view: View & { signedIn: SignedIn }) => Promise<void>,
    ): RequestHandler =>
    (req, res, next) => {
      let view: View | undefined;
      (async () => {
        view = contextOf(req, res);
        const signedIn = await deps.sessions.load(req, view.meta);
        if (!signedIn) {
          if (req.headers.cookie?.includes('console_session=')) deps.sessions.forget(res);
          if (wantsHtml(req)) return void res.redirect(303, `${view.ctx.base}/sign-in`);
          throw new AppError('SESSION_REQUIRED');
        }
        view.signedIn = signedIn;
        view.ctx.signedIn = { username: signedIn.session.username, csrf: signedIn.session.csrf };
        if (req.method === 'POST') {
          checkOrigin(req);
          checkCsrfToken((req.body as { csrf?: unknown } | undefined)?.csrf, signedIn.session.csrf);
        }
        await handler(req, res, view as View & { signedIn: SignedIn });
      })().catch((error: unknown) => fail(req, res, next, view, error));
    };

  const fail = async (
    req: Request,
    res: Response,
    next: (error?: unknown) => void,
    view: View | undefined,
    error: unknown,
  ) => {
    if (error instanceof SessionEnded && view?.signedIn) {
      await deps.sessions.end(res, view.signedIn, view.meta);
      if (wantsHtml(req)) return void res.redirect(303, `${view.ctx.base}/sign-in`);
      return next(new AppError('SESSION_REQUIRED'));
    }
    if (!view || !wantsHtml(req)) return next(error);
    const code: ErrorCode = isAppError(error) ? error.code : 'INTERNAL_ERROR';
    if (!isAppError(error)) requestContext(res).log.error({ err: error }, 'console page failed');
    else if (error.internal) requestContext(res).log.warn({ err: error, code }, 'console request refused');
    if (code === 'SERVICE_UNAVAILABLE') res.set('Retry-After', '5');
    send(res, errorStatus(code), errorPage(view.ctx, code));
  };

  const apiMeta = (req: Request, view: View & { signedIn: SignedIn }) => ({
    baseUrl: selfUrl(req),
    accessToken: view.signedIn.session.accessToken,
    requestId: view.meta.requestId,
    language: view.ctx.language,
  });

  const clientId = (req: Request, view: { ctx: { language: Language } }) =>
    parseBody(z.object({ id: clientIdSchema }), req.params, view.ctx.language).id;

  const renderClient = async (
    req: Request,
    res: Response,
    view: View & { signedIn: SignedIn },
    options: ClientPageOptions & { status?: number } = {},
  ) => {
    const html = await renderClientPage(deps.api, apiMeta(req, view), view.ctx, clientId(req, view), options);
    send(res, options.status ?? 200, html);
  };

  router.use(securityHeaders);

  router.get('/assets/:file', (req, res, next) => {
    const name = req.params.file;
    const asset = assets.get(name);
    if (!asset || (req.params as { lang?: string }).lang !== undefined)
      return next(new AppError('NOT_FOUND'));
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' }).send(asset.bytes);
  });

  router.get('/', (req, res, next) => {
    try {
      res.redirect(303, `${contextOf(req, res).ctx.base}/clients`);
    } catch (error) {
      next(error);
    }
  });

  router.get('/sign-in', (req, res, next) => {
    let view: View | undefined;
    try {
      view = contextOf(req, res);
      send(res, 200, signInPage(view.ctx));
    } catch (error) {
      void fail(req, res, next, view, error);
    }
  });

  router.post('/sign-in', form, (req, res, next) => {
    let view: View | undefined;
    (async () => {
      view = contextOf(req, res);
      checkOrigin(req);
      const body = req.body as Record<string, unknown> | undefined;
      const credentials = signInForm.safeParse(body ?? {});
      const username = typeof body?.username === 'string' ? body.username.slice(0, 200) : '';
      if (!credentials.success)
        return void send(res, 400, signInPage(view.ctx, { message: 'signInFailed', username }));
      try {
        const tokens = await deps.tokens.signIn(
          credentials.data.username,
          credentials.data.password,
          view.meta,
        );
        await deps.sessions.start(req, res, credentials.data.username, tokens, view.meta);
        res.redirect(303, `${view.ctx.base}/clients`);
      } catch (error) {
        if (!(error instanceof SignInRefused)) throw error;
        const throttled = error.reason === 'throttled';
        if (throttled) res.set('Retry-After', '60');
        send(
          res,
          throttled ? 429 : 401,
          signInPage(view.ctx, { message: throttled ? 'signInThrottled' : 'signInFailed', username }),
        );
      }
    })().catch((error: unknown) => fail(req, res, next, view, error));
  });

  router.post(
    '/sign-out',
    form,
    page(async (_req, res, view) => {
      await deps.sessions.end(res, view.signedIn, view.meta);
      res.redirect(303, `${view.ctx.base}/sign-in`);
    }),
  );

  router.get(
    '/clients',
    page(async (req, res, view) => {
      const { clients } = expectOk<{ clients: AdminClient[] }>(
        await deps.api('GET', '/api/v1/admin/clients', apiMeta(req, view)),
      );
      send(res, 200, clientsPage(view.ctx, clients, await deps.llmEndpoint()));
    }),
  );

  router.get(
    '/clients/:id',
    page(async (req, res, view) => {
      const query = parseBody(clientQuery, req.query, view.ctx.language);
      await renderClient(req, res, view, { interval: query.interval, saved: query.saved === '1' });
    }),
  );

  router.post(
    '/clients/:id/settings',
    form,
    page(async (req, res, view) => {
      const id = clientId(req, view);
      const values = parseBody(settingsFormSchema, req.body, view.ctx.language) as Record<string, string>;
      const answer = await deps.api(
        'PUT',
        `/api/v1/admin/clients/${encodeURIComponent(id)}/settings`,
        apiMeta(req, view),
        settingsFromForm(values),
      );
      if (answer.status === 400) {
        const problem = answer.body as { errors?: { path: string; message: string }[] };
        const errors = Object.fromEntries(
          (problem.errors ?? [{ path: '(body)', message: '' }]).map((e) => [e.path, e.message]),
        );
        return renderClient(req, res, view, { status: 400, settingsForm: values, settingsErrors: errors });
      }
      expectOk(answer);
      res.redirect(303, `${view.ctx.base}/clients/${encodeURIComponent(id)}?saved=1#settings`);
    }),
  );

  router.post(
    '/clients/:id/try',
    form,
    page(async (req, res, view) => {
      const id = clientId(req, view);
      const values = parseBody(tryFormSchema, req.body, view.ctx.language);
      // The session's token must still hold spam:admin and the client must exist: the admin API says both.
      const { clients } = expectOk<{ clients: AdminClient[] }>(
        await deps.api('GET', '/api/v1/admin/clients', apiMeta(req, view)),
      );
      if (!clients.some((client) => client.id === id)) throw new AppError('CLIENT_NOT_FOUND');
      const shown = Object.fromEntries(
        Object.entries(values).filter(([, v]) => typeof v === 'string'),
      ) as Record<string, string>;
      try {
        const result = await tryCheck(values, deps, {
          requestId: view.meta.requestId,
          language: view.ctx.language,
          clientId: id,
        });
        await renderClient(req, res, view, { tryIt: { values: shown, result } });
      } catch (error) {
        if (!isAppError(error) || error.code !== 'VALIDATION_FAILED') throw error;
        const errors = Object.fromEntries((error.errors ?? []).map((e) => [e.path, e.message]));
        await renderClient(req, res, view, { status: 400, tryIt: { values: shown, errors } });
      }
    }),
  );

  router.use((req, res, next) => {
    let view: View | undefined;
    try {
      view = contextOf(req, res);
      throw new AppError('NOT_FOUND');
    } catch (error) {
      void fail(req, res, next, view, error);
    }
  });

  app.use('/console', router);
  app.use('/:lang/console', router);
}
