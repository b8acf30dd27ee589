import {
  clientIdSchema,
  webhookIdSchema,
  type ClientSettings,
  type ClientSettingsAnswer,
  type WebhookDeliveries,
  type WebhookSecretRotation,
} from '@spam-check/contracts';
import { parseBody } from '@spam-check/service-kit';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { expectOk } from './api-answers';
import { formBody } from './guards';
import { send, type ConsoleDeps, type SignedInView, type views } from './view';
import { webhooksPage, type WebhooksPageState } from './webhooks-page';

const params = z.object({ id: clientIdSchema, webhook_id: webhookIdSchema.optional() });
const addForm = z.object({
  id: z.string().max(200).default(''),
  url: z.string().max(4000).default(''),
  events: z.union([z.string(), z.array(z.string())]).optional(),
});

/** What the webhook pages share: admin API calls as the session, the path's ids, the page itself. */
function webhookPages(deps: ConsoleDeps, view: ReturnType<typeof views>) {
  const api = (v: SignedInView, method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown) =>
    deps.api(method, `/api/v1/admin/clients${path}`, view.apiMeta(v), body);
  const settingsOf = async (v: SignedInView, id: string) =>
    expectOk<ClientSettings>(await api(v, 'GET', `/${encodeURIComponent(id)}/settings`));
  const render = async (
    res: Response,
    v: SignedInView,
    id: string,
    extra: Omit<WebhooksPageState, 'id' | 'webhooks'> & { status?: number } = {},
  ) => {
    const hooks = (await settingsOf(v, id)).webhooks ?? [];
    const webhooks = await Promise.all(
      hooks.map(async (hook) => {
        const path = `/${encodeURIComponent(id)}/webhooks/${encodeURIComponent(hook.id)}/deliveries`;
        return { hook, deliveries: expectOk<WebhookDeliveries>(await api(v, 'GET', path)).deliveries };
      }),
    );
    send(res, extra.status ?? 200, webhooksPage(v.ctx, { id, webhooks, ...extra }));
  };
  return {
    api,
    settingsOf,
    render,
    ids: (req: Request, v: SignedInView) => parseBody(params, req.params, v.ctx.language),
    hookPath: (id: string, webhookId: string | undefined, what: string) =>
      `/${encodeURIComponent(id)}/webhooks/${encodeURIComponent(webhookId ?? '')}/${what}`,
    pagePath: (v: SignedInView, id: string) => `${v.ctx.base}/clients/${encodeURIComponent(id)}/webhooks`,
  };
}

/** The add form: the settings rewritten with one more webhook; its secret shown on the answer, once. */
function addWebhook(pages: ReturnType<typeof webhookPages>) {
  return async (req: Request, res: Response, v: SignedInView) => {
    const { id } = pages.ids(req, v);
    const posted = parseBody(addForm, req.body, v.ctx.language);
    const events = posted.events === undefined ? [] : [posted.events].flat();
    const settings = await pages.settingsOf(v, id);
    const webhooks = [
      ...(settings.webhooks ?? []),
      { id: posted.id, url: posted.url, events, enabled: true },
    ];
    const answer = await pages.api(v, 'PUT', `/${encodeURIComponent(id)}/settings`, {
      ...settings,
      webhooks,
    });
    if (answer.status === 400) {
      const problem = answer.body as { errors?: { path: string; message: string }[] };
      const errors = Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
      return pages.render(res, v, id, { status: 400, form: { ...posted, events }, errors });
    }
    const added = expectOk<ClientSettingsAnswer>(answer).webhooks?.find((hook) => hook.id === posted.id);
    await pages.render(
      res,
      v,
      id,
      added?.secret ? { secret: { webhookId: posted.id, value: added.secret } } : {},
    );
  };
}

/**
 * `/console/clients/<id>/webhooks`: the client's webhooks with their last deliveries, over the admin API.
 * Adding or removing a webhook rewrites the settings with the rest unchanged; a secret the API answers
 * (an added webhook, a rotation) is shown on the page that answers the form, and nowhere else.
 */
export function webhookRoutes(router: Router, deps: ConsoleDeps, view: ReturnType<typeof views>) {
  const form = formBody(deps.maxBodyBytes);
  const pages = webhookPages(deps, view);
  router.get(
    '/clients/:id/webhooks',
    view.page(async (req, res, v) => {
      await pages.render(res, v, pages.ids(req, v).id, { testSent: req.query.sent === '1' });
    }),
  );
  router.post('/clients/:id/webhooks', form, view.page(addWebhook(pages)));
  router.post(
    '/clients/:id/webhooks/:webhook_id/secret',
    form,
    view.page(async (req, res, v) => {
      const { id, webhook_id: webhookId = '' } = pages.ids(req, v);
      const answer = await pages.api(v, 'POST', pages.hookPath(id, webhookId, 'secret'));
      const rotated = expectOk<WebhookSecretRotation>(answer);
      await pages.render(res, v, id, {
        secret: { webhookId, value: rotated.secret, previousUntil: rotated.previous_valid_until },
      });
    }),
  );
  router.post(
    '/clients/:id/webhooks/:webhook_id/test',
    form,
    view.page(async (req, res, v) => {
      const { id, webhook_id: webhookId } = pages.ids(req, v);
      expectOk(await pages.api(v, 'POST', pages.hookPath(id, webhookId, 'test')));
      res.redirect(303, `${pages.pagePath(v, id)}?sent=1`);
    }),
  );
  router.post(
    '/clients/:id/webhooks/:webhook_id/remove',
    form,
    view.page(async (req, res, v) => {
      const { id, webhook_id: webhookId } = pages.ids(req, v);
      const settings = await pages.settingsOf(v, id);
      const webhooks = (settings.webhooks ?? []).filter((hook) => hook.id !== webhookId);
      expectOk(await pages.api(v, 'PUT', `/${encodeURIComponent(id)}/settings`, { ...settings, webhooks }));
      res.redirect(303, pages.pagePath(v, id));
    }),
  );
}
