export { consoleRouter, type ConsoleOptions } from './router';
export type { SessionPolicy } from './sessions';
export {
  memoryConsoleSessions,
  redisConsoleSessions,
  type ConsoleSession,
  type ConsoleSessionStore,
} from './session-store';
