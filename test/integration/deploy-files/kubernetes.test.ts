import { randomBytes } from 'node:crypto';
import { secretProblems } from '@spam-check/service-kit';
import { effectiveInstructions, envOf, parseDockerfile } from './dockerfile';
import { named, ofKind, parseEnvFile, readText, renderKustomization } from './files';
import type { Container, K8sObject } from './manifests';
import { matches } from './references';
import {
  GATEWAY_UPSTREAMS,
  SERVICES,
  environmentProblems,
  serviceNamed,
  type Env,
  type ServiceUnderTest,
} from './services';

// Both overlays rendered as `kubectl apply -k` would see them, then held to the deployment rules.
const OVERLAYS = ['dev', 'prod'] as const;
type Overlay = (typeof OVERLAYS)[number];
const rendered = Object.fromEntries(
  OVERLAYS.map((overlay) => [overlay, renderKustomization(`k8s/overlays/${overlay}`)]),
) as Record<Overlay, K8sObject[]>;

/** Production's Secret is created by the operator; its documented example stands in for it here. */
const PROD_SECRET_EXAMPLE = 'k8s/overlays/prod/secrets.example.env';
const AUTOSCALED = ['gateway', 'email-detector', 'text-detector'];
const { stages } = parseDockerfile();
/** The example's commented-out `#KEY=value` lines: the Sentinel and Cluster keys, placeholders replaced. */
const alternatives = Object.fromEntries(
  [...readText(PROD_SECRET_EXAMPLE).matchAll(/^#([A-Z_]+)=(.+)$/gm)].map(([, key, value]) => [
    key!,
    value!.includes('replace-me') ? randomBytes(24).toString('hex') : value!,
  ]),
);

const podSpec = (objects: K8sObject[], name: string) => named(objects, 'Deployment', name).spec.template.spec;
const podLabels = (objects: K8sObject[], name: string) =>
  named(objects, 'Deployment', name).spec.template.metadata.labels;

function container(objects: K8sObject[], service: ServiceUnderTest): Container {
  const { containers } = podSpec(objects, service.name);
  expect(containers.map((c) => c.name)).toEqual([service.name]);
  return containers[0]!;
}

/** The example with its placeholders replaced, as the operator must (production refuses published secrets). */
const prodSecret = Object.fromEntries(
  Object.entries(parseEnvFile(PROD_SECRET_EXAMPLE)).map(([key, value]) => [
    key,
    secretProblems('production', { [key]: value }).length > 0 ? randomBytes(24).toString('hex') : value,
  ]),
);

function secretValue(
  objects: K8sObject[],
  name: string,
  key: string,
  operatorSecret: Record<string, string>,
): string | undefined {
  const secret = ofKind(objects, 'Secret').find((object) => object.metadata.name === name);
  if (!secret) return operatorSecret[key];
  const data = secret.data?.[key];
  return data === undefined ? secret.stringData?.[key] : Buffer.from(data, 'base64').toString();
}

/**
 * The environment the container starts with: the image's ENV, then envFrom ConfigMaps, then env; a Secret the
 * overlay does not render is `operatorSecret` (by default the documented example).
 */
function containerEnv(
  objects: K8sObject[],
  service: ServiceUnderTest,
  overlay: Overlay,
  operatorSecret = prodSecret,
): Env {
  const spec = container(objects, service);
  const env: Env = envOf(effectiveInstructions(stages, service.name));
  for (const source of spec.envFrom ?? []) {
    if (!source.configMapRef)
      throw new Error(`${overlay}: ${service.name} takes a whole Secret with envFrom; name each key instead`);
    Object.assign(env, named(objects, 'ConfigMap', source.configMapRef.name).data);
  }
  for (const entry of spec.env ?? []) {
    const secretRef = entry.valueFrom?.secretKeyRef;
    const configMapRef = entry.valueFrom?.configMapKeyRef;
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (secretRef) {
      const value = secretValue(objects, secretRef.name, secretRef.key, operatorSecret);
      if (value === undefined && !secretRef.optional)
        throw new Error(`${overlay}: Secret ${secretRef.name} has no key ${secretRef.key}`);
      // An optional key that is absent leaves the variable unset; its name is still checked.
      env[entry.name] = value;
    } else if (configMapRef)
      env[entry.name] = named(objects, 'ConfigMap', configMapRef.name).data?.[configMapRef.key];
    else throw new Error(`${overlay}: cannot resolve ${entry.name}`);
  }
  return env;
}

/** Port and timeouts as the service reads them (production's dependency checks are covered separately). */
function loaded(objects: K8sObject[], service: ServiceUnderTest, overlay: Overlay) {
  return service.load({ ...containerEnv(objects, service, overlay), NODE_ENV: 'development' });
}

/** The preStop pause before SIGTERM: the `sleep` action or an exec of `sleep N`; anything else is refused. */
function preStopPauseSeconds(spec: Container): number {
  const preStop = spec.lifecycle?.preStop;
  if (!preStop) return 0;
  if (preStop.sleep) return preStop.sleep.seconds;
  const [command, seconds] = preStop.exec?.command ?? [];
  if (command !== 'sleep') throw new Error(`cannot tell how long preStop ${command} takes`);
  return Number(seconds);
}

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const objects = rendered[overlay];

  describe.each(SERVICES)('the $name Deployment', (service) => {
    it('probes /livez and /readyz, and has Prometheus scrape /metrics, where the service serves them', () => {
      const spec = container(objects, service);
      const config = loaded(objects, service, overlay);
      const portNamed = (name: string) => spec.ports?.find((port) => port.name === name)?.containerPort;
      expect(portNamed('http')).toBe(config.port);
      // A management port, where the service has one, serves the probes and /metrics instead of its API port.
      const probes = config.managementPort === undefined ? 'http' : 'management';
      if (probes === 'management') expect(portNamed('management')).toBe(config.managementPort);
      expect(spec.livenessProbe?.httpGet).toEqual({ path: '/livez', port: probes });
      expect(spec.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: probes });
      expect(named(objects, 'Deployment', service.name).spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(portNamed(probes)),
        'prometheus.io/path': '/metrics',
      });
    });

    it('has CPU and memory requests and limits', () => {
      const { resources } = container(objects, service);
      expect(Object.keys(resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(Object.keys(resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
    });

    it('runs as non-root on a read-only root filesystem without capabilities', () => {
      const pod = podSpec(objects, service.name);
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(container(objects, service).securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
    });

    it('waits longer before SIGKILL than the preStop pause plus the service’s shutdown timeout', () => {
      const { SHUTDOWN_TIMEOUT_MS } = loaded(objects, service, overlay);
      const pause = preStopPauseSeconds(container(objects, service));
      expect(podSpec(objects, service.name).terminationGracePeriodSeconds).toBeGreaterThan(
        pause + SHUTDOWN_TIMEOUT_MS / 1000,
      );
    });

    it('sets only variables the service reads, all it requires, and values it accepts in its mode', () => {
      const env = containerEnv(objects, service, overlay);
      // dev runs in development mode: its secrets are published here, and production refuses those.
      expect(env.NODE_ENV).toBe(overlay === 'prod' ? 'production' : 'development');
      expect(environmentProblems(service, env, `k8s/overlays/${overlay}`)).toEqual([]);
    });

    it('has a PodDisruptionBudget and a Service over its pods', () => {
      const labels = podLabels(objects, service.name);
      const budgets = ofKind(objects, 'PodDisruptionBudget').filter((pdb) =>
        matches(pdb.spec.selector, labels),
      );
      expect(budgets).toHaveLength(1);
      const svc = named(objects, 'Service', service.name);
      expect(matches({ matchLabels: svc.spec.selector }, labels)).toBe(true);
      expect(svc.spec.ports).toEqual([expect.objectContaining({ name: 'http', targetPort: 'http' })]);
    });
  });

  it('autoscales the gateway and the detectors on CPU, and runs auth at a fixed replica count', () => {
    const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
    expect(hpas.map((hpa) => hpa.spec.scaleTargetRef.name).sort()).toEqual([...AUTOSCALED].sort());
    for (const hpa of hpas) {
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec.scaleTargetRef.kind).toBe('Deployment');
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      // An HPA-managed Deployment must not pin replicas, or every apply resets the autoscaler's choice.
      expect(named(objects, 'Deployment', hpa.spec.scaleTargetRef.name).spec.replicas).toBeUndefined();
    }
    expect(named(objects, 'Deployment', 'auth').spec.replicas).toBeGreaterThanOrEqual(1);
  });

  it('points the gateway at the auth and detector Services by name and port', () => {
    const env = containerEnv(objects, serviceNamed('gateway'), overlay);
    for (const [variable, target] of GATEWAY_UPSTREAMS) {
      const url = new URL(env[variable]!);
      expect(url.hostname).toBe(target);
      expect(named(objects, 'Service', target).spec.ports.map((port) => port.port)).toContain(
        Number(url.port),
      );
    }
  });

  it('gives the gateway and auth the same introspection client', () => {
    const gateway = containerEnv(objects, serviceNamed('gateway'), overlay);
    const auth = containerEnv(objects, serviceNamed('auth'), overlay);
    expect(gateway.GATEWAY_CLIENT_ID).toBeDefined();
    expect(gateway.GATEWAY_CLIENT_ID).toBe(auth.GATEWAY_CLIENT_ID);
    expect(gateway.GATEWAY_CLIENT_SECRET).toBe(auth.GATEWAY_CLIENT_SECRET);
  });

  it('mounts the auth bootstrap Secret where AUTH_BOOTSTRAP_FILE points', () => {
    const env = containerEnv(objects, serviceNamed('auth'), overlay);
    const pod = podSpec(objects, 'auth');
    const mount = container(objects, serviceNamed('auth')).volumeMounts?.find((m) =>
      (env.AUTH_BOOTSTRAP_FILE ?? '').startsWith(`${m.mountPath}/`),
    );
    const volume = pod.volumes?.find((v) => v.name === mount?.name);
    expect(volume?.secret?.secretName).toMatch(/^auth-bootstrap/);
    // Secret files are root-owned: the service's group must be able to read them.
    expect(pod.securityContext?.fsGroup).toBe(pod.securityContext?.runAsGroup);
  });

  it('exposes the gateway, and only the gateway, through an Ingress', () => {
    const ingresses = ofKind(objects, 'Ingress');
    expect(ingresses).toHaveLength(1);
    const paths = ingresses[0]!.spec.rules.flatMap((rule) => rule.http.paths);
    for (const path of paths)
      expect(path.backend.service).toEqual({ name: 'gateway', port: { name: 'http' } });
  });

  it('routes only the public paths to the gateway: the API and token endpoints under every language prefix, the OAuth metadata, the docs', () => {
    const gateway = serviceNamed('gateway');
    const { LANGUAGES } = gateway.load(containerEnv(objects, gateway, overlay));
    const prefixes = ['', ...LANGUAGES.flatMap((language) => [language, `${language}/`])];
    const expected = [
      ...prefixes.flatMap((prefix) => ['api', 'oauth'].map((root) => `Prefix /${prefix}${root}`)),
      'Exact /openapi.json',
      'Exact /.well-known/oauth-authorization-server',
      'Prefix /docs',
    ];
    const [ingress] = ofKind(objects, 'Ingress');
    const routed = ingress!.spec.rules.flatMap((rule) =>
      rule.http.paths.map((path) => `${path.pathType} ${path.path}`),
    );
    expect(routed.sort()).toEqual(expected.sort());
  });
});

describe('the overlays differ where they should', () => {
  const hpa = (overlay: Overlay, name: string) => named(rendered[overlay], 'HorizontalPodAutoscaler', name);
  const deployments = (overlay: Overlay) =>
    ofKind(rendered[overlay], 'Deployment').map((d) => d.metadata.name);

  it('dev runs Redis and RabbitMQ in the cluster and points the services at them', () => {
    expect(deployments('dev')).toEqual(expect.arrayContaining(['redis', 'rabbitmq']));
    const env = containerEnv(rendered.dev, serviceNamed('gateway'), 'dev');
    expect(new URL(env.REDIS_URL!).hostname).toBe('redis');
    expect(new URL(env.AMQP_URL!).hostname).toBe('rabbitmq');
  });

  it('prod runs no Redis or RabbitMQ and takes their URLs from a Secret it does not generate', () => {
    expect(deployments('prod').sort()).toEqual(SERVICES.map((s) => s.name).sort());
    expect(ofKind(rendered.prod, 'Secret')).toEqual([]);
    const referenced = SERVICES.flatMap((service) =>
      (container(rendered.prod, service).env ?? [])
        .map((entry) => entry.valueFrom?.secretKeyRef)
        .filter((ref) => ref?.name === 'spam-check-secrets')
        .map((ref) => ref!.key),
    );
    expect(referenced).toEqual(expect.arrayContaining(['REDIS_URL', 'AMQP_URL']));
    // The example documents exactly the keys the operator may create: set, or commented out as alternatives.
    const documented = [...Object.keys(parseEnvFile(PROD_SECRET_EXAMPLE)), ...Object.keys(alternatives)];
    expect([...new Set(referenced)].sort()).toEqual([...new Set(documented)].sort());
  });

  it.each([
    [
      'a Sentinel group',
      ['REDIS_SENTINELS', 'REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD', 'REDIS_PASSWORD'],
    ],
    ['a Redis Cluster', ['REDIS_CLUSTER_NODES', 'REDIS_PASSWORD']],
  ])('prod uses %s when the Secret names it instead of REDIS_URL, with no other change', (_, keys) => {
    const { REDIS_URL, ...rest } = prodSecret;
    expect(REDIS_URL).toBeDefined();
    const secret = { ...rest, ...Object.fromEntries(keys.map((key) => [key, alternatives[key]!])) };
    for (const service of SERVICES) {
      const env = containerEnv(rendered.prod, service, 'prod', secret);
      expect(environmentProblems(service, env, 'k8s/overlays/prod')).toEqual([]);
      const target = service.load({ ...env, NODE_ENV: 'development' }).redis;
      expect(target?.kind).toBe(keys[0] === 'REDIS_SENTINELS' ? 'sentinel' : 'cluster');
      expect(target).toMatchObject({ password: alternatives.REDIS_PASSWORD });
    }
  });

  it('prod runs more replicas than dev', () => {
    for (const name of AUTOSCALED) {
      expect(hpa('prod', name).spec.minReplicas).toBeGreaterThan(hpa('dev', name).spec.minReplicas);
      expect(hpa('prod', name).spec.minReplicas).toBeGreaterThanOrEqual(2);
    }
    const authReplicas = (overlay: Overlay) =>
      named(rendered[overlay], 'Deployment', 'auth').spec.replicas ?? 1;
    expect(authReplicas('prod')).toBeGreaterThan(authReplicas('dev'));
  });

  it('prod serves the Ingress over TLS', () => {
    const [ingress] = ofKind(rendered.prod, 'Ingress');
    expect(ingress?.spec.tls).toEqual([expect.objectContaining({ secretName: expect.any(String) })]);
  });
});
