import { WEBHOOK_EVENTS, type Webhook, type WebhookDelivery } from '@spam-check/contracts';
import { html, type Html } from './html';
import { layout, t, tableHead, type FieldErrors, type PageContext } from './pages';

export interface WebhooksPageState {
  id: string;
  webhooks: { hook: Webhook; deliveries: WebhookDelivery[] }[];
  /** A secret just generated (added or rotated): shown this once. */
  secret?: { webhookId: string; value: string; previousUntil?: string };
  testSent?: boolean;
  /** After a refused addition: what was posted, with the API's messages. */
  form?: { id: string; url: string; events: string[] };
  errors?: FieldErrors;
}

const csrfField = (ctx: PageContext) =>
  html`<input type="hidden" name="csrf" value="${ctx.signedIn?.csrf ?? ''}" />`;

function deliveriesTable(ctx: PageContext, deliveries: WebhookDelivery[]): Html {
  if (deliveries.length === 0) return html`<p>${t(ctx, 'noDeliveries')}</p>`;
  return html`<table>
    ${tableHead(ctx, ['time', 'event', 'status', 'attempts'])}
    <tbody>
      ${deliveries.map(
        (delivery) =>
          html`<tr data-delivery="${delivery.id}" data-status="${delivery.status}">
            <td><time datetime="${delivery.created_at}">${delivery.created_at}</time></td>
            <td><code>${delivery.event}</code></td>
            <td title="${delivery.last_error ?? ''}">
              ${t(ctx, delivery.status)}${
                delivery.last_response_status === null ? '' : html` (${delivery.last_response_status})`
              }
            </td>
            <td>${delivery.attempts}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function webhookBlock(ctx: PageContext, clientPath: string, entry: WebhooksPageState['webhooks'][number]) {
  const { hook, deliveries } = entry;
  const action = (what: string) => `${clientPath}/webhooks/${encodeURIComponent(hook.id)}/${what}`;
  const button = (what: string, key: 'sendTestEvent' | 'rotateSecret' | 'removeWebhook') =>
    html`<form method="post" action="${action(what)}" class="inline">
      ${csrfField(ctx)}<button type="submit">${t(ctx, key)}</button>
    </form>`;
  return html`<article class="webhook" data-webhook="${hook.id}">
    <h3><code>${hook.id}</code> ${hook.enabled ? '' : html`<small>(${t(ctx, 'disabled')})</small>`}</h3>
    <p><code>${hook.url}</code> · ${hook.events.join(', ')}</p>
    ${button('test', 'sendTestEvent')} ${button('secret', 'rotateSecret')}
    ${button('remove', 'removeWebhook')}
    <h4>${t(ctx, 'deliveries')}</h4>
    ${deliveriesTable(ctx, deliveries)}
  </article>`;
}

function addForm(ctx: PageContext, clientPath: string, state: WebhooksPageState): Html {
  const form = state.form ?? { id: '', url: '', events: ['check.spam'] };
  const error = (path: string) => {
    const message = state.errors?.[path];
    return message ? html`<p class="field-error" role="alert">${message}</p>` : '';
  };
  return html`<form method="post" action="${clientPath}/webhooks" class="stack" id="add-webhook">
    ${csrfField(ctx)} ${error('webhooks')}
    <label for="webhook-id">${t(ctx, 'webhookId')}</label>
    <input id="webhook-id" name="id" required pattern="[\\w\\-]{1,40}" value="${form.id}" />
    ${error(`webhooks.${state.webhooks.length}.id`)}
    <label for="webhook-url">${t(ctx, 'webhookUrl')}</label>
    <input id="webhook-url" name="url" type="url" required value="${form.url}" />
    ${error(`webhooks.${state.webhooks.length}.url`)}
    <fieldset>
      <legend>${t(ctx, 'webhookEvents')}</legend>
      ${WEBHOOK_EVENTS.map(
        (event) =>
          html`<label
            ><input
              type="checkbox"
              name="events"
              value="${event}"
              ${form.events.includes(event) ? 'checked' : ''}
            />
            <code>${event}</code></label
          >`,
      )}
    </fieldset>
    ${error(`webhooks.${state.webhooks.length}.events`)}
    <button type="submit">${t(ctx, 'addWebhook')}</button>
  </form>`;
}

/** A client's webhooks: each with its last deliveries and its buttons, a secret shown once, the add form. */
export function webhooksPage(ctx: PageContext, state: WebhooksPageState): string {
  const clientPath = `${ctx.base}/clients/${encodeURIComponent(state.id)}`;
  const secret = state.secret
    ? html`<div class="notice" role="status" id="webhook-secret">
        <p>${t(ctx, 'secretOnce')} (<code>${state.secret.webhookId}</code>)</p>
        <p><code data-secret>${state.secret.value}</code></p>
        ${
          state.secret.previousUntil
            ? html`<p>${t(ctx, 'previousSecretUntil')} ${state.secret.previousUntil}</p>`
            : ''
        }
      </div>`
    : '';
  return layout(
    ctx,
    `${state.id} · ${t(ctx, 'webhooks')}`,
    html`<p><a href="${clientPath}">← ${t(ctx, 'client')} ${state.id}</a></p>
      <h1>${t(ctx, 'webhooks')} <code>${state.id}</code></h1>
      <p>${t(ctx, 'webhooksHelp')}</p>
      ${secret} ${state.testSent ? html`<p role="status">${t(ctx, 'testEventSent')}</p>` : ''}
      ${
        state.webhooks.length === 0
          ? html`<p>${t(ctx, 'noWebhooks')}</p>`
          : state.webhooks.map((entry) => webhookBlock(ctx, clientPath, entry))
      }
      <h2>${t(ctx, 'addWebhook')}</h2>
      ${addForm(ctx, clientPath, state)}`,
  );
}
