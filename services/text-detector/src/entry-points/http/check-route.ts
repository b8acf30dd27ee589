import type { TextCheckRequest } from '@spam-check/contracts';
import {
  clientIdOf,
  elapsedMs,
  parseBody,
  readJsonBody,
  sendJson,
  type DirectRoute,
} from '@spam-check/service-kit';
import type { z } from 'zod';
import type { CheckClientText } from '../../domain/check-text';

/** `POST /v1/check`: a kit direct route (plain `node:http`), since every text check of the API passes it. */
export function checkRoute(
  checkText: CheckClientText,
  schema: z.ZodType<TextCheckRequest>,
  bodyLimit: number,
): DirectRoute {
  return {
    path: '/v1/check',
    handle: async (req, res, context) => {
      const body = parseBody(schema, await readJsonBody(req, bodyLimit));
      const result = await checkText({
        ...body,
        language: context.language,
        requestId: context.requestId,
        clientId: clientIdOf(req),
      });
      sendJson(res, 200, { ...result, duration_ms: elapsedMs(context) });
    },
  };
}
