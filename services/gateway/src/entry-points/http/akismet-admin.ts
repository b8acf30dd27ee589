import { clientIdSchema } from '@spam-check/contracts';
import { AppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { AuthAdmin } from '../../data-access/auth-admin';
import { callerOf } from './authenticate';

const idParameter = z.object({ id: clientIdSchema });

/**
 * `POST /admin/clients/{id}/akismet-key` (201 `{key}`, shown once; a new key replaces the old one) and
 * `DELETE` (204, revoked): the auth service keeps the key's hash, as it keeps client secrets. `audited` logs
 * each as an admin action and keeps it for the stats answer.
 */
export function akismetKeyRoutes(
  router: Router,
  authAdmin: AuthAdmin,
  audited: (action: 'akismet_key.issue' | 'akismet_key.revoke') => RequestHandler,
): void {
  const forward = (method: 'POST' | 'DELETE') => async (req: Request, res: Response) => {
    const context = requestContext(res);
    const { id } = parseBody(idParameter, req.params, context.language);
    const caller = callerOf(res);
    const answer = await authAdmin.call(method, `/admin/clients/${id}/akismet-key`, {
      requestId: context.requestId,
      language: context.language,
      clientId: caller.clientId,
      username: caller.username ?? '',
    });
    res.status(answer.status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    if (answer.status === 204) res.end();
    else res.json(answer.body);
  };
  router.post('/clients/:id/akismet-key', audited('akismet_key.issue'), forward('POST'));
  router.delete('/clients/:id/akismet-key', audited('akismet_key.revoke'), forward('DELETE'));
  router.all('/clients/:id/akismet-key', (_req, res, next) => {
    res.setHeader('Allow', 'POST, DELETE');
    next(new AppError('METHOD_NOT_ALLOWED'));
  });
}
