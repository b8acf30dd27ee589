import { errorStatus, type ErrorCode, type Language } from '@spam-check/contracts';
import { AppError, clientAddress, isAppError, requestContext } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiCallMeta, ConsoleApi } from './api';
import { SessionEnded } from './api-answers';
import { checkCsrfToken, checkOrigin } from './guards';
import { errorPage, type PageContext } from './pages';
import type { ConsoleSessions, SignedIn } from './sessions';
import type { ConsoleTokenClient, TokenCallMeta } from './tokens';

/** What the console's routes work with, built once by `consoleRouter`. */
export interface ConsoleDeps {
  languages: readonly Language[];
  maxBodyBytes: number;
  trustedProxyHops: number;
  apiUrl: (req: Request) => string;
  sessions: ConsoleSessions;
  tokens: ConsoleTokenClient;
  api: ConsoleApi;
  llmEndpoint: () => Promise<string | null | undefined>;
}

export interface View {
  ctx: PageContext;
  meta: TokenCallMeta;
  signedIn?: SignedIn;
}
export type SignedInView = View & { signedIn: SignedIn };
type Next = (error?: unknown) => void;

const wantsHtml = (req: Request) => req.accepts(['json', 'html']) === 'html';

export const send = (res: Response, status: number, page: string) =>
  res.status(status).set({ 'Cache-Control': 'no-store' }).type('html').send(page);

/**
 * How every console answer is made: the page's language and paths from the URL, a session for pages and
 * changes (else the sign-in page, or 401 for API-like requests), a synchronizer token and the Origin on
 * changes, and errors as pages for browsers (as problems for the rest, by the host app's error handler).
 */
export function views(deps: ConsoleDeps) {
  const contextOf = (req: Request, res: Response): View => {
    const param = (req.params as { lang?: string }).lang;
    if (param !== undefined && !(deps.languages as readonly string[]).includes(param))
      throw new AppError('NOT_FOUND');
    const context = requestContext(res);
    const language = (param as Language | undefined) ?? context.language;
    const base = param === undefined ? '/console' : `/${param}/console`;
    // The language switch links the page shown: a form's answer is its client's page.
    const here =
      req.path === '/'
        ? ''
        : req.path
            .replace(/\/(settings|try)$/, '')
            .replace(/(\/webhooks)\/[^/]+\/(secret|test|remove)$/, '$1');
    const address = clientAddress(req, deps.trustedProxyHops);
    return {
      ctx: { language, languages: deps.languages, base, here },
      meta: { baseUrl: deps.apiUrl(req), requestId: context.requestId, language, clientAddress: address },
    };
  };

  const fail = async (req: Request, res: Response, next: Next, view: View | undefined, error: unknown) => {
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

  /** A handler without a session (sign-in, 404): its view, and its errors shown as pages. */
  const open =
    (handler: (req: Request, res: Response, view: View) => void | Promise<void>): RequestHandler =>
    (req, res, next) => {
      let view: View | undefined;
      (async () => {
        view = contextOf(req, res);
        await handler(req, res, view);
      })().catch((error: unknown) => fail(req, res, next, view, error));
    };

  /** Pages and changes: a session first (else sign-in or 401), then a synchronizer token on changes. */
  const page =
    (handler: (req: Request, res: Response, view: SignedInView) => Promise<void>): RequestHandler =>
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
        await handler(req, res, view as SignedInView);
      })().catch((error: unknown) => fail(req, res, next, view, error));
    };

  /** The session's calls to the API: its token, this request's id and language. */
  const apiMeta = (view: SignedInView): ApiCallMeta => ({
    baseUrl: view.meta.baseUrl,
    accessToken: view.signedIn.session.accessToken,
    requestId: view.meta.requestId,
    language: view.ctx.language,
  });

  return { open, page, apiMeta };
}
