import type http from 'node:http';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import type { ConsoleSessionStore } from '@spam-check/console';
import type { CheckMemory } from '@spam-check/client-state';
import type { ServiceBase } from '@spam-check/service-kit';
import type { ServiceConfig } from './config';
import type { AuthAdmin } from './data-access/auth-admin';
import type { HttpDetector } from './data-access/detector-client';
import type { Upstream } from './data-access/http-post';
import type { TokenIntrospector } from './data-access/introspection';
import type { Review } from './data-access/review';
import type { UsageStore } from './data-access/usage-store';
import type { BatchTransport } from './domain/batch-check';
import type { FailedTokenLimit } from './domain/failed-token-limit';
import type { DetectorTransport } from './domain/hybrid-check';
import type { RateLimitStore } from './domain/rate-limit';
import type { Webhooks } from './entry-points/http/webhooks';

/** What the gateway's app is built from (`compose.ts` makes it; `app.ts` and `route-handlers.ts` use it). */
export interface AppDeps extends ServiceBase<ServiceConfig> {
  introspector: TokenIntrospector;
  rateLimits: RateLimitStore;
  failedTokens: FailedTokenLimit;
  agents: { auth: Upstream };
  /** The detectors over HTTP (their URLs and keep-alive pools), as the transports below use them too. */
  detectors: { email: HttpDetector; text: HttpDetector };
  /** For the OAuth proxy (http-proxy-middleware takes a `node:http` agent). */
  proxyAgent: http.Agent;
  /** Parallel hybrid checks (HTTP) and step-by-step ones (RPC, or HTTP in embedded mode). */
  transports: { parallel: DetectorTransport; stepByStep: DetectorTransport };
  /** The auth service's client administration (docs/design.md, Administration). */
  authAdmin: AuthAdmin;
  /** Per-client settings and usage; absent without Redis. */
  settings?: ClientSettingsStore | undefined;
  usage?: UsageStore | undefined;
  /** Hybrid check id → the ids of its parts, per client, for feedback (FEEDBACK_RETENTION_SECONDS). */
  hybrids: CheckMemory;
  /** Batch checks: each detector's `POST /v1/check/batch` over HTTP. */
  batches: BatchTransport;
  /** The client's recent checks for review (`GET /api/v1/checks`): Redis, or memory in embedded mode. */
  review: Review;
  /** Where console sessions live: Redis, or memory in embedded mode. */
  consoleSessions: ConsoleSessionStore;
  /** Webhooks (events, secrets, delivery log); absent without Redis. */
  webhooks?: Webhooks | undefined;
}
