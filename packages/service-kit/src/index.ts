export {
  loadConfig,
  ConfigError,
  env,
  commonConfigShape,
  checkLimitsShape,
  checkLimitsOf,
  servicePort,
  secretProblems,
  PUBLISHED_SECRETS,
  MIN_SECRET_LENGTH,
  type Env,
} from './config';
export { createLogger, REDACTED_PATHS, type Logger } from './logger';
export { AppError, isAppError, type FieldError } from './errors';
export { parseBody } from './validate';
export { requestContext, elapsedMs, type RequestContext } from './context';
export { pickLanguage } from './language';
export { buildProblem } from './problem';
export { createMetrics, Counter, Histogram, type Metrics } from './metrics';
export { createReadiness, evaluateReadiness, type Readiness } from './readiness';
export {
  createServiceApp,
  createManagementApp,
  postRoute,
  errorHandler,
  type ServiceApp,
  type ServiceAppOptions,
  type ServiceBase,
  type KitConfig,
} from './app';
export { jsonBodyParser, isJsonRequest, readJsonBody, readJsonBytes } from './body';
export { type DirectRoute } from './direct-route';
export { sendJson } from './respond';
export {
  serve,
  registerShutdown,
  listenForManagement,
  DEFAULT_SERVER_TIMEOUTS,
  type RunningService,
  type Closer,
  type ServerTimeouts,
} from './serve';
export { connectRedis, type RedisConnection, type RedisConnectionOptions, type RedisLogger } from './redis';
export { runService, type RunnableConfig, type StartedService, type Consumer } from './run';
export { requestIdOf } from './request-id';
export { rpcCheckHandler, type RpcCheckContext } from './rpc-handler';
export {
  feedbackConfigShape,
  memoryCheckMemory,
  redisCheckMemory,
  memoryClientMap,
  redisClientMap,
  type CheckMemory,
  type ClientMap,
} from './feedback-store';
export { clientIdOf, requiredClientId } from './client-id';
export { clientAddress } from './client-address';
export { mapConcurrently } from './concurrency';
export { batchRoute, type BatchRouteOptions } from './batch-route';
