import {
  amqpConfigShape,
  checkLimitsOf,
  checkLimitsShape,
  clientSettingsConfigShape,
  commonConfigShape,
  redisConfigShape,
  redisTargetOf,
  servicePort,
  type CheckLimitsConfig,
  type Env,
} from '@spam-check/service-kit';
import { feedbackConfigShape, privacyConfigShape, privacyOf } from '@spam-check/client-state';

/**
 * What both detectors read besides their own variables: the server settings, the client settings, the check
 * limits, the feedback store, privacy, and where the broker and Redis are (each optional outside production).
 */
export const detectorConfigShape = {
  ...commonConfigShape,
  ...clientSettingsConfigShape,
  ...checkLimitsShape,
  ...feedbackConfigShape,
  ...privacyConfigShape,
  ...amqpConfigShape,
  /**
   * Where per-client settings, reports and feedback are kept (docs/design.md, Learning from reports;
   * Administration).
   */
  ...redisConfigShape,
};

/** A detector's parsed config with its privacy settings, check limits and port resolved. */
export function detectorConfigOf<C extends CheckLimitsConfig & Parameters<typeof privacyOf>[0]>(
  config: C,
  source: Env,
  port: { variable: string; fallback: number },
) {
  return {
    ...config,
    ...privacyOf(config),
    redis: redisTargetOf(config),
    limits: checkLimitsOf(config),
    port: servicePort(source, port.variable, port.fallback),
  };
}
