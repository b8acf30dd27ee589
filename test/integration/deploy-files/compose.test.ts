import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { secretProblems } from '@spam-check/service-kit';
import { bootstrapSchema } from '../../../services/auth/src/domain/accounts';
import { effectiveInstructions, envOf, parseDockerfile } from './dockerfile';
import { ROOT, interpolate, parseEnvFile, parseYamlFile, readText } from './files';
import type { ComposeFile } from './manifests';
import { GATEWAY_UPSTREAMS, SERVICES, environmentProblems, serviceNamed, type Env } from './services';
import { writeBootstrapFile } from '@spam-check/test-support';

const secret = () => randomBytes(24).toString('hex');

/** The .env an operator writes from deploy/compose.env.example: own secrets and an own bootstrap file. */
function operatorEnv(): Record<string, string> {
  const bootstrap = writeBootstrapFile({
    clients: [
      { id: 'shop', secret: secret(), grants: ['password', 'refresh_token'], scopes: ['spam:check'] },
    ],
    users: [{ username: 'shop-backend', password: secret() }],
  });
  return {
    ...parseEnvFile('deploy/compose.env.example'),
    REDIS_PASSWORD: secret(),
    RABBITMQ_PASSWORD: secret(),
    GATEWAY_CLIENT_SECRET: secret(),
    PRIVACY_HASH_KEY: secret(),
    REVIEW_CONTENT_KEY: secret(),
    AUTH_BOOTSTRAP_SOURCE: bootstrap,
  };
}

// `docker compose config` needs the compose plugin, which is not installed here: the file is parsed as
// YAML (with merge keys) and its ${...} substitutions are resolved as compose does, from an operator's .env.
describe('docker-compose.yml', () => {
  const dotEnv = operatorEnv();
  const { services } = parseYamlFile<ComposeFile>('docker-compose.yml');
  const definition = (name: string) => {
    const service = services[name];
    if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
    return service;
  };
  const { stages } = parseDockerfile();

  /**
   * What the container sees: the image's ENV, then compose's `environment` (null = passed through if set),
   * with `shell` standing for the shell and .env (by default the operator's .env above).
   */
  function containerEnv(
    name: string,
    shell: Record<string, string> = dotEnv,
  ): { env: Env; passedThrough: string[] } {
    const service = definition(name);
    const image = envOf(effectiveInstructions(stages, service.build?.target ?? name));
    const environment = Object.entries(service.environment ?? {});
    const env: Env = { ...image };
    const passedThrough: string[] = [];
    for (const [key, value] of environment) {
      if (value === null) {
        passedThrough.push(key);
        if (shell[key] !== undefined) env[key] = shell[key];
      } else env[key] = interpolate(String(value), shell);
    }
    return { env, passedThrough };
  }

  it('runs Redis, RabbitMQ and the four services', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['redis', 'rabbitmq', ...SERVICES.map((service) => service.name)].sort(),
    );
  });

  it('publishes the gateway only', () => {
    const published = Object.entries(services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['gateway']);
    expect(definition('gateway').ports?.map((port) => interpolate(port))).toEqual(['127.0.0.1:8080:8080']);
  });

  it('gives every container a health check and starts each one only after its dependencies are healthy', () => {
    for (const [name, service] of Object.entries(services)) {
      expect([name, service.healthcheck?.test]).toEqual([name, expect.any(Array)]);
      for (const [dependency, condition] of Object.entries(service.depends_on ?? {})) {
        expect([name, dependency, condition]).toEqual([name, dependency, { condition: 'service_healthy' }]);
        expect(Object.keys(services)).toContain(dependency);
      }
    }
    expect(Object.keys(definition('gateway').depends_on ?? {}).sort()).toEqual(
      ['auth', 'email-detector', 'rabbitmq', 'redis', 'text-detector'].sort(),
    );
  });

  describe.each(SERVICES)('the $name service', (service) => {
    const own = () => definition(service.name);

    it('is built from its Dockerfile target and health-checks /readyz where it serves it', () => {
      // NODE_IMAGE from the shell or .env reaches the Dockerfile's ARG; unset, its default holds.
      expect(own().build).toEqual({ context: '.', target: service.name, args: ['NODE_IMAGE'] });
      const test = own().healthcheck?.test.join(' ');
      const config = service.load(containerEnvOrEmpty(service.name));
      expect(test).toContain(`http://127.0.0.1:${config.managementPort ?? config.port}/readyz`);
    });

    it('sets only variables the service reads, all it requires, and values it accepts in production', () => {
      const { env, passedThrough } = containerEnv(service.name);
      expect(env.NODE_ENV).toBe('production');
      expect(environmentProblems(service, env, 'docker-compose.yml')).toEqual([]);
      const known = Object.keys(service.schema.shape);
      expect(passedThrough.filter((key) => !known.includes(key))).toEqual([]);
    });

    it('is given more time to stop than its shutdown timeout, and runs read-only without capabilities', () => {
      const { SHUTDOWN_TIMEOUT_MS } = service.load(containerEnvOrEmpty(service.name));
      expect(seconds(own().stop_grace_period ?? '0s')).toBeGreaterThan(SHUTDOWN_TIMEOUT_MS / 1000);
      expect(own().read_only).toBe(true);
      expect(own().cap_drop).toEqual(['ALL']);
    });
  });

  it.each(['redis', 'rabbitmq'])(
    'runs %s read-only, as its own non-root user, without capabilities, from an image .env may replace',
    (name) => {
      expect(definition(name)).toMatchObject({ user: name, read_only: true, cap_drop: ['ALL'] });
      expect(definition(name).image).toMatch(
        new RegExp(`^\\$\\{${name.toUpperCase()}_IMAGE:-${name}:[\\w.-]+\\}$`),
      );
    },
  );

  it('gives RabbitMQ a fixed hostname (its node name names its data directory in the volume)', () => {
    expect(definition('rabbitmq').hostname).toBe('rabbitmq');
  });

  function containerEnvOrEmpty(name: string): Env {
    // The production checks are covered above; port and timeouts do not depend on them.
    const { env } = containerEnv(name);
    return { ...env, NODE_ENV: 'development' };
  }

  it('points the gateway at the other services by their compose names and ports', () => {
    const { env } = containerEnv('gateway');
    for (const [variable, target] of GATEWAY_UPSTREAMS) {
      const url = new URL(env[variable]!);
      expect(url.hostname).toBe(target);
      expect(Number(url.port)).toBe(serviceNamed(target).load(containerEnvOrEmpty(target)).port);
    }
  });

  it('gives the gateway and auth the same introspection client', () => {
    const gateway = containerEnv('gateway').env;
    const auth = containerEnv('auth').env;
    expect(gateway.GATEWAY_CLIENT_ID).toBe(auth.GATEWAY_CLIENT_ID);
    expect(gateway.GATEWAY_CLIENT_SECRET).toBe(auth.GATEWAY_CLIENT_SECRET);
  });

  it('uses one Redis and one RabbitMQ password in the servers and in the services’ URLs', () => {
    const setting = (name: string, key: string) =>
      interpolate(String(definition(name).environment?.[key]), dotEnv);
    const redisPassword = setting('redis', 'REDIS_PASSWORD');
    const rabbitUser = setting('rabbitmq', 'RABBITMQ_DEFAULT_USER');
    const rabbitPassword = setting('rabbitmq', 'RABBITMQ_DEFAULT_PASS');
    for (const service of SERVICES) {
      const { env } = containerEnv(service.name);
      if (env.REDIS_URL) expect(env.REDIS_URL).toBe(`redis://:${redisPassword}@redis:6379`);
      if (env.AMQP_URL) expect(env.AMQP_URL).toBe(`amqp://${rabbitUser}:${rabbitPassword}@rabbitmq:5672`);
    }
  });

  it('mounts the bootstrap file named in .env where AUTH_BOOTSTRAP_FILE points', () => {
    const { env } = containerEnv('auth');
    const mounts = (definition('auth').volumes ?? []).map((volume) => interpolate(volume, dotEnv).split(':'));
    const mount = mounts.find(([, target]) => target === env.AUTH_BOOTSTRAP_FILE);
    expect(mount).toEqual([dotEnv.AUTH_BOOTSTRAP_SOURCE, env.AUTH_BOOTSTRAP_FILE, 'ro']);
    expect(existsSync(resolve(ROOT, mount![0]!))).toBe(true);
  });

  it('without .env, or with the example copied unfilled, it stops naming every missing secret', () => {
    const missing = (shell: Record<string, string>) => {
      const names = new Set<string>();
      const texts = Object.values(services).flatMap((service) => [
        ...Object.values(service.environment ?? {}).map(String),
        ...(service.volumes ?? []),
      ]);
      for (const text of texts) {
        try {
          interpolate(text, shell);
        } catch (error) {
          names.add(/compose requires (\w+)/.exec((error as Error).message)![1]!);
        }
      }
      return [...names].sort();
    };
    const secrets = [
      'AUTH_BOOTSTRAP_SOURCE',
      'GATEWAY_CLIENT_SECRET',
      'PRIVACY_HASH_KEY',
      'RABBITMQ_PASSWORD',
      'REDIS_PASSWORD',
      'REVIEW_CONTENT_KEY',
    ];
    expect(missing({})).toEqual(secrets);
    expect(missing(parseEnvFile('deploy/compose.env.example'))).toEqual(secrets);
    expect(readText('docker-compose.yml')).not.toMatch(/(PASSWORD|SECRET)[A-Z_]*:-/);
  });

  it('ships a bootstrap example that is valid and refused in production until its placeholders are replaced', () => {
    const bootstrap = bootstrapSchema.parse(JSON.parse(readText('deploy/bootstrap.example.json')));
    const secrets = Object.fromEntries([
      ...bootstrap.clients.map((client) => [`client ${client.id}`, client.secret]),
      ...bootstrap.users.map((user) => [`user ${user.username}`, user.password]),
    ]);
    expect(Object.keys(secrets).length).toBeGreaterThan(1);
    expect(secretProblems('production', secrets)).toHaveLength(Object.keys(secrets).length);
  });

  it('starts the text detector in production with the LLM on when .env gives a key', () => {
    const llm = { TEXT_LLM_MODE: 'band', OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4o-mini' };
    const { env } = containerEnv('text-detector', { ...dotEnv, ...llm });
    expect(env).toMatchObject(llm);
    expect(environmentProblems(serviceNamed('text-detector'), env, 'docker-compose.yml with an LLM')).toEqual(
      [],
    );
  });

  it('passes the OpenAI variables through to the text detector', () => {
    const { passedThrough } = containerEnv('text-detector');
    const openAi = Object.keys(serviceNamed('text-detector').schema.shape).filter((key) =>
      key.startsWith('OPENAI_'),
    );
    expect(openAi).toContain('OPENAI_API_KEY');
    expect(passedThrough.sort()).toEqual(expect.arrayContaining(openAi.sort()));
  });

  it('documents in the env example every variable the compose file substitutes', () => {
    const substituted = new Set([...readText('docker-compose.yml').matchAll(/\$\{(\w+)/g)].map((m) => m[1]));
    const example = readText('deploy/compose.env.example');
    const missing = [...substituted].filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });
});

function seconds(duration: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(duration);
  if (!match) throw new Error(`cannot read duration ${duration}`);
  return Number(match[1]) / { ms: 1000, s: 1, m: 1 / 60 }[match[2] as 'ms' | 's' | 'm'];
}
