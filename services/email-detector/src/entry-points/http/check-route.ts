import type { MailCheckRequest } from '@spam-check/contracts';
import {
  clientIdOf,
  elapsedMs,
  parseBody,
  readJsonBody,
  sendJson,
  type DirectRoute,
} from '@spam-check/service-kit';
import type { z } from 'zod';
import { runEmailCheck, type EmailChecker } from '../../email-checker';

/** `POST /v1/check`: a kit direct route (plain `node:http`), since every mail check of the API passes it. */
export function checkRoute(
  checker: EmailChecker,
  schema: z.ZodType<MailCheckRequest>,
  bodyLimit: number,
): DirectRoute {
  return {
    path: '/v1/check',
    handle: async (req, res, context) => {
      const { email } = parseBody(schema, await readJsonBody(req, bodyLimit));
      const result = await runEmailCheck(
        checker,
        { email, language: context.language, requestId: context.requestId, clientId: clientIdOf(req) },
        'http',
      );
      sendJson(res, 200, { ...result, duration_ms: elapsedMs(context) });
    },
  };
}
