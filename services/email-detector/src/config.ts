import { commonConfigShape, env, loadConfig, servicePort, type Env } from '@spam-check/service-kit';
import { z } from 'zod';

/** Every variable the e-mail detector reads (documented in the README's configuration table). */
export const configSchema = z.object({
  ...commonConfigShape,
  AMQP_URL: env.url(),
});

export function loadServiceConfig(source: Env = process.env) {
  const config = loadConfig(configSchema, source);
  return { ...config, port: servicePort(source, 'EMAIL_DETECTOR_PORT', 8082) };
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;
