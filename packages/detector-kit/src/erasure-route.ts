import { erasureSchemas } from '@spam-check/contracts';
import type { Express } from 'express';
import { parseBody, postRoute, requestContext } from '@spam-check/service-kit';

export type ErasedCounts = Record<string, number>;

export interface Eraser {
  /** What the service keeps about an address, for every client; absent when it keeps no address. */
  address?: (email: string) => Promise<ErasedCounts>;
  client: (clientId: string) => Promise<ErasedCounts>;
}

/**
 * `POST /v1/erasure` of a detector (internal, called by the gateway's `POST /api/v1/admin/erasure`,
 * docs/design.md, Privacy and erasure): `{email}` or `{client_id}`, answered with `{erased: {<store>:
 * <count>}}`. A service that keeps no address answers an address with no stores.
 */
export function mountErasureRoute(app: Express, eraser: Eraser): void {
  postRoute(app, '/v1/erasure', async (req, res) => {
    const { language } = requestContext(res);
    const schema = erasureSchemas.formOf(req.body);
    if (schema === erasureSchemas.byClient) {
      const { client_id } = parseBody(erasureSchemas.byClient, req.body, language);
      res.json({ erased: await eraser.client(client_id) });
    } else {
      const { email } = parseBody(erasureSchemas.byEmail, req.body, language);
      res.json({ erased: eraser.address ? await eraser.address(email) : {} });
    }
  });
}
