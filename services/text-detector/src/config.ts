import { commonConfigShape, env, loadConfig, servicePort, type Env } from '@spam-check/service-kit';
import { z } from 'zod';

/** Every variable the text detector reads (documented in the README's configuration table). */
export const configSchema = z.object({
  ...commonConfigShape,
  AMQP_URL: env.url(),
});

export function loadServiceConfig(source: Env = process.env) {
  const config = loadConfig(configSchema, source);
  return { ...config, port: servicePort(source, 'TEXT_DETECTOR_PORT', 8083) };
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;
