import { commonConfigShape, loadConfig, servicePort, type Env } from '@spam-check/service-kit';
import { z } from 'zod';

/** Every variable the auth service reads (documented in the README's configuration table). */
export const configSchema = z.object({
  ...commonConfigShape,
});

export function loadServiceConfig(source: Env = process.env) {
  const config = loadConfig(configSchema, source);
  return { ...config, port: servicePort(source, 'AUTH_PORT', 8081) };
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;
