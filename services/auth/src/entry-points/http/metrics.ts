import { Counter, type Metrics } from '@spam-check/service-kit';

export function createTokenMetrics(metrics: Metrics) {
  return {
    issued: new Counter({
      name: 'auth_tokens_issued_total',
      help: 'Token responses by grant type',
      labelNames: ['grant'] as const,
      registers: [metrics.registry],
    }),
    errors: new Counter({
      name: 'auth_token_errors_total',
      help: 'OAuth error answers of the token, introspection and revocation endpoints by error code',
      labelNames: ['error'] as const,
      registers: [metrics.registry],
    }),
    introspections: new Counter({
      name: 'auth_introspections_total',
      help: 'Introspection answers by result',
      labelNames: ['active'] as const,
      registers: [metrics.registry],
    }),
  };
}
export type TokenMetrics = ReturnType<typeof createTokenMetrics>;
