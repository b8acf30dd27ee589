import * as auth from '../../../services/auth/src/config';
import * as emailDetector from '../../../services/email-detector/src/config';
import * as gateway from '../../../services/gateway/src/config';
import * as textDetector from '../../../services/text-detector/src/config';
import { embeddedDefaults as textDetectorEmbeddedDefaults } from '../../../services/text-detector/src/config';

import type { RedisTarget } from '@spam-check/service-kit';

export type Env = Record<string, string | undefined>;

/** The part of a zod object schema these checks use (structural, so the root needs no zod of its own). */
interface ConfigSchema {
  shape: Record<string, { safeParse: (value: unknown) => { success: boolean } }>;
}

/** What the deployment checks read of a loaded config; `managementPort` where probes and metrics have one. */
interface Loaded {
  port: number;
  LANGUAGES: readonly string[];
  /** Where the service's Redis is (none in embedded mode). */
  redis: RedisTarget | undefined;
  managementPort?: number;
  SHUTDOWN_TIMEOUT_MS: number;
}

/** What the deployment files must agree with: each service's own config module, imported as the code has it. */
export interface ServiceUnderTest {
  name: 'gateway' | 'auth' | 'email-detector' | 'text-detector';
  /** The variable `servicePort` reads for this service (not part of `configSchema`). */
  portVariable: string;
  defaultPort: number;
  schema: ConfigSchema;
  load: (env: Env) => Loaded;
  /** Embedded defaults the service refuses in production after loading its config (when not in `load`). */
  productionRefusals?: (env: Env) => string[];
}

export const SERVICES: readonly ServiceUnderTest[] = [
  { name: 'gateway', portVariable: 'GATEWAY_PORT', defaultPort: 8080, ...moduleOf(gateway) },
  { name: 'auth', portVariable: 'AUTH_PORT', defaultPort: 8081, ...moduleOf(auth) },
  {
    name: 'email-detector',
    portVariable: 'EMAIL_DETECTOR_PORT',
    defaultPort: 8082,
    ...moduleOf(emailDetector),
  },
  {
    name: 'text-detector',
    portVariable: 'TEXT_DETECTOR_PORT',
    defaultPort: 8083,
    ...moduleOf(textDetector),
    productionRefusals: (env) => textDetectorEmbeddedDefaults(textDetector.loadServiceConfig(env)),
  },
];

function moduleOf(module: { configSchema: ConfigSchema; loadServiceConfig: (env: Env) => unknown }) {
  // A schema wrapped in a transform or pipe has no shape: the deployment checks need the plain object.
  if (typeof module.configSchema.shape !== 'object')
    throw new Error(
      'configSchema must stay a zod object (refine it; do not transform it) so its keys can be listed',
    );
  return {
    schema: module.configSchema,
    load: (env: Env) => module.loadServiceConfig(env) as Loaded,
  };
}

/** The gateway's variables that name another service, and the service each must name (compose and Kubernetes alike). */
export const GATEWAY_UPSTREAMS = [
  ['AUTH_URL', 'auth'],
  ['EMAIL_DETECTOR_URL', 'email-detector'],
  ['TEXT_DETECTOR_URL', 'text-detector'],
] as const;

export function serviceNamed(name: string): ServiceUnderTest {
  const service = SERVICES.find((candidate) => candidate.name === name);
  if (!service) throw new Error(`no service named ${name}`);
  return service;
}

/** Every variable the service reads: its schema's keys and its port variable. */
export function knownVariables(service: ServiceUnderTest): string[] {
  return [...Object.keys(service.schema.shape), service.portVariable];
}

/** Required = the schema accepts no absence (neither optional nor defaulted). */
function requiredVariables(service: ServiceUnderTest): string[] {
  return Object.entries(service.schema.shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key]) => key);
}

/**
 * The checks every deployment target shares, as a list of problems (empty when the environment fits):
 * every variable set is one the service reads, every required one is set, and the service's own
 * `loadServiceConfig` accepts the values (which covers production's refusal of embedded defaults).
 */
export function environmentProblems(service: ServiceUnderTest, env: Env, where: string): string[] {
  const known = new Set(knownVariables(service));
  const problems = Object.keys(env)
    .filter((key) => !known.has(key))
    .map((key) => `${where}: ${service.name} does not read ${key}`);
  for (const key of requiredVariables(service))
    if (env[key] === undefined) problems.push(`${where}: ${service.name} requires ${key}, which is not set`);
  try {
    service.load(env);
    if (env.NODE_ENV === 'production')
      for (const refusal of service.productionRefusals?.(env) ?? [])
        problems.push(`${where}: ${service.name} refuses in production: ${refusal}`);
  } catch (error) {
    problems.push(`${where}: ${service.name} refuses its configuration: ${(error as Error).message}`);
  }
  return problems;
}
