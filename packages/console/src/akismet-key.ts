import { clientIdSchema } from '@spam-check/contracts';
import { parseBody } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { expectOk } from './api-answers';
import { html, type Html } from './html';
import { layout, t, type PageContext } from './pages';
import { send, type SignedInView, type views } from './view';
import type { ConsoleDeps } from './view';

/** The client page's Akismet key section: issue (replaces the old key) or revoke; never shows a stored key. */
export function akismetKeySection(ctx: PageContext, clientId: string): Html {
  const action = (path: string, label: Html | string, id: string) =>
    html`<form method="post" action="${ctx.base}/clients/${encodeURIComponent(clientId)}/${path}" id="${id}">
      <input type="hidden" name="csrf" value="${ctx.signedIn?.csrf ?? ''}" />
      <button type="submit">${label}</button>
    </form>`;
  return html`<p>${t(ctx, 'akismetHelp')}</p>
    ${action('akismet-key', t(ctx, 'issueAkismetKey'), 'akismet-issue')}
    ${action('akismet-key/revoke', t(ctx, 'revokeAkismetKey'), 'akismet-revoke')}`;
}

function resultPage(ctx: PageContext, clientId: string, body: Html): string {
  return layout(
    ctx,
    clientId,
    html`<p><a href="${ctx.base}/clients/${encodeURIComponent(clientId)}">← ${clientId}</a></p>
      <h1>${t(ctx, 'akismetKey')} <code>${clientId}</code></h1>
      ${body}`,
  );
}

/** POST /clients/:id/akismet-key (the new key on a no-store page, once) and .../akismet-key/revoke. */
export function akismetKeyRoutes(
  router: Router,
  deps: ConsoleDeps,
  view: ReturnType<typeof views>,
  form: RequestHandler,
): void {
  const idOf = (req: Request, v: SignedInView) =>
    parseBody(z.object({ id: clientIdSchema }), req.params, v.ctx.language).id;
  const path = (id: string) => `/api/v1/admin/clients/${encodeURIComponent(id)}/akismet-key`;
  router.post(
    '/clients/:id/akismet-key',
    form,
    view.page(async (req: Request, res: Response, v: SignedInView) => {
      const id = idOf(req, v);
      const { key } = expectOk<{ key: string }>(await deps.api('POST', path(id), view.apiMeta(v)));
      const shown = html`<p>${t(v.ctx, 'akismetKeyShownOnce')}</p>
        <p><code id="akismet-key">${key}</code></p>`;
      send(res, 201, resultPage(v.ctx, id, shown));
    }),
  );
  router.post(
    '/clients/:id/akismet-key/revoke',
    form,
    view.page(async (req: Request, res: Response, v: SignedInView) => {
      const id = idOf(req, v);
      const answer = await deps.api('DELETE', path(id), view.apiMeta(v));
      if (answer.status !== 204) expectOk(answer);
      send(res, 200, resultPage(v.ctx, id, html`<p role="status">${t(v.ctx, 'akismetKeyRevoked')}</p>`));
    }),
  );
}
