export {
  loadConfig,
  ConfigError,
  env,
  commonConfigShape,
  clientSettingsConfigShape,
  checkLimitsShape,
  checkLimitsOf,
  servicePort,
  secretProblems,
  type CheckLimitsConfig,
  type Env,
} from './config';
export { createLogger, type Logger } from './logger';
export { AppError, isAppError, type FieldError } from './errors';
export { parseBody } from './validate';
export { requestContext, elapsedMs, type RequestContext } from './context';
export { buildProblem } from './problem';
export { createMetrics, Counter, Histogram, type Metrics } from './metrics';
export { createReadiness, evaluateReadiness } from './readiness';
export { createServiceApp, createManagementApp, postRoute, type ServiceApp, type ServiceBase } from './app';
export { jsonBodyParser, isJsonRequest, readJsonBody, readJsonBytes } from './body';
export { sendJson } from './respond';
export { serve, listenForManagement, type RunningService, type Closer } from './serve';
export { connectRedis, type RedisClient, type RedisConnection, type RedisLogger } from './redis';
export { amqpConfigShape } from './amqp-target';
export { redisConfigShape, redisTargetOf, type RedisConfig, type RedisTarget } from './redis-target';
export { runService, type ServiceContext, type StartedService, type Consumer } from './run';
export { clientAddress } from './client-address';
export { fairShare, type FairShare } from './fair-share';
export { pickLanguage } from './language';
export { requestIdOf } from './request-id';
