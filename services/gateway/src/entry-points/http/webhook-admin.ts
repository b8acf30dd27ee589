import {
  validationRuleMessage,
  webhookIdSchema,
  type ClientSettings,
  type ClientSettingsAnswer,
  type Language,
  type WebhookSecretRotation,
} from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { AppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { targetUrlProblem } from '../../domain/webhook-target';
import type { Webhooks } from './webhooks';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const webhookParameter = z.object({ webhook_id: webhookIdSchema });

/** Every webhook URL the deployment would refuse to post to (scheme, literal address): 400 naming each. */
function checkTargets(webhooks: Webhooks, document: ClientSettings, language: Language): void {
  const errors = (document.webhooks ?? []).flatMap((hook, index) => {
    const problem = targetUrlProblem(new URL(hook.url), webhooks.policy);
    return problem
      ? [{ path: `webhooks.${index}.url`, message: validationRuleMessage(problem, language) }]
      : [];
  });
  if (errors.length > 0) throw new AppError('VALIDATION_FAILED', { errors });
}

/**
 * A settings PUT's webhooks: the targets checked; a webhook the stored settings did not have gets a new
 * signing secret, answered this once as `webhooks[i].secret`; a webhook dropped loses its secret and its
 * delivery log. Secrets are written before the settings, so a delivery never finds a webhook without one.
 */
export async function applyWebhookSettings(
  webhooks: Webhooks | undefined,
  settings: ClientSettingsStore,
  clientId: string,
  document: ClientSettings,
  language: Language,
): Promise<ClientSettingsAnswer> {
  if (!webhooks || document.webhooks === undefined) return document;
  checkTargets(webhooks, document, language);
  const before = new Set((await settings.read(clientId)).webhooks?.map((hook) => hook.id));
  const after = new Set(document.webhooks.map((hook) => hook.id));
  const dropped = [...before].filter((id) => !after.has(id));
  await Promise.all([
    webhooks.secrets.remove(clientId, dropped),
    webhooks.deliveries.remove(clientId, dropped),
  ]);
  const answered = await Promise.all(
    document.webhooks.map(async (hook) =>
      before.has(hook.id) ? hook : { ...hook, secret: await webhooks.secrets.create(clientId, hook.id) },
    ),
  );
  return { ...document, webhooks: answered };
}

/**
 * `/clients/{id}/webhooks/{webhook_id}/...`: rotate the secret, list the recent deliveries, send a test
 * event. `existing` answers the client id once auth knows the client; an unknown webhook is 404.
 */
export function webhookHandlers(deps: {
  webhooks: Webhooks | undefined;
  settings: ClientSettingsStore | undefined;
  existing: (req: Request, res: Response) => Promise<string>;
}) {
  const target = async (req: Request, res: Response) => {
    const { webhooks, settings } = deps;
    if (!webhooks || !settings)
      throw new AppError('SERVICE_UNAVAILABLE', { internal: 'webhooks need REDIS_URL (embedded mode)' });
    const { webhook_id: webhookId } = parseBody(webhookParameter, req.params, requestContext(res).language);
    const clientId = await deps.existing(req, res);
    const hook = (await settings.read(clientId)).webhooks?.find((candidate) => candidate.id === webhookId);
    if (!hook) throw new AppError('NOT_FOUND');
    return { webhooks, clientId, hook };
  };
  return {
    rotate: async (req: Request, res: Response) => {
      const { webhooks, clientId, hook } = await target(req, res);
      const { secret, previousUntil } = await webhooks.secrets.rotate(clientId, hook.id, new Date());
      const answer: WebhookSecretRotation = {
        webhook_id: hook.id,
        secret,
        previous_valid_until: previousUntil.toISOString(),
      };
      res.set(NO_STORE).json(answer);
    },
    deliveries: async (req: Request, res: Response) => {
      const { webhooks, clientId, hook } = await target(req, res);
      const deliveries = await webhooks.deliveries.list(clientId, hook.id);
      res.set(NO_STORE).json({ client_id: clientId, webhook_id: hook.id, deliveries });
    },
    test: async (req: Request, res: Response) => {
      const { webhooks, clientId, hook } = await target(req, res);
      const deliveryId = await webhooks.sendTest(clientId, hook);
      res
        .status(202)
        .set(NO_STORE)
        .json({ delivery_id: deliveryId, request_id: requestContext(res).requestId });
    },
  };
}
