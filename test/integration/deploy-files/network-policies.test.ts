import { named, ofKind, readText, renderKustomization } from './files';
import type { K8sObject, NetworkPolicyPeer } from './manifests';
import { matches } from './references';

// Both overlays rendered as `kubectl apply -k` would see them; the connections their NetworkPolicies allow are
// worked out as Kubernetes does and compared with the table of flows in docs/design.md ("Architecture").

/** Peers outside the namespace that a policy may name: the namespace, and the pods' name label in it. */
const OUTSIDE = { 'ingress-nginx/ingress-nginx': 'ingress-nginx', 'monitoring/prometheus': 'prometheus' };

interface Pod {
  name: string;
  labels: Record<string, string>;
  /** Container port name (or number, when unnamed) by number. */
  ports: Map<number, string>;
}

function podsOf(objects: K8sObject[]): Pod[] {
  return ofKind(objects, 'Deployment').map((deployment) => ({
    name: deployment.metadata.name,
    labels: deployment.spec.template.metadata.labels,
    ports: new Map(
      deployment.spec.template.spec.containers.flatMap((container) =>
        (container.ports ?? []).map((port) => [port.containerPort, port.name ?? String(port.containerPort)]),
      ),
    ),
  }));
}

/** Who a peer is: pods of the namespace by name, a known outside peer, or `anyone` for what cannot be told. */
function sourcesOf(peer: NetworkPolicyPeer, pods: Pod[]): string[] {
  if (peer.ipBlock !== undefined) return ['anyone'];
  if (peer.namespaceSelector === undefined)
    return pods.filter((pod) => matches(peer.podSelector ?? {}, pod.labels)).map((pod) => pod.name);
  const namespace = peer.namespaceSelector.matchLabels?.['kubernetes.io/metadata.name'];
  const name = peer.podSelector?.matchLabels?.['app.kubernetes.io/name'];
  const exact =
    Object.keys(peer.namespaceSelector).join() === 'matchLabels' &&
    Object.keys(peer.podSelector ?? {}).join() === 'matchLabels';
  const known = OUTSIDE[`${namespace}/${name}` as keyof typeof OUTSIDE];
  return exact && known !== undefined ? [known] : ['anyone'];
}

/** The target's ports a rule opens: a named port only where the pod has it, as Kubernetes resolves it. */
function portsOf(rule: { ports?: { port: string | number }[] }, pod: Pod): string[] {
  if (rule.ports === undefined) return ['every port'];
  return rule.ports.flatMap(({ port }) => {
    if (typeof port === 'number') return [pod.ports.get(port) ?? String(port)];
    return [...pod.ports.values()].includes(port) ? [port] : [];
  });
}

/** Every connection into the overlay's pods that its policies let through, as `from -> to:port`. */
function allowedFlows(objects: K8sObject[]): string[] {
  const pods = podsOf(objects);
  const policies = ofKind(objects, 'NetworkPolicy').filter((policy) =>
    (policy.spec.policyTypes ?? ['Ingress']).includes('Ingress'),
  );
  const flows = pods.flatMap((pod) => {
    const selecting = policies.filter((policy) => matches(policy.spec.podSelector, pod.labels));
    // A pod that no policy selects takes connections from anyone.
    if (selecting.length === 0) return [`anyone -> ${pod.name}:every port`];
    return selecting.flatMap((policy) =>
      (policy.spec.ingress ?? []).flatMap((rule) => {
        const sources =
          rule.from === undefined ? ['anyone'] : rule.from.flatMap((peer) => sourcesOf(peer, pods));
        return sources.flatMap((source) =>
          portsOf(rule, pod).map((port) => `${source} -> ${pod.name}:${port}`),
        );
      }),
    );
  });
  return [...new Set(flows)].sort();
}

/** The flows of the table in docs/design.md, limited to the pods that the overlay runs. */
function documentedFlows(objects: K8sObject[]): string[] {
  const design = readText('docs/design.md');
  const table = design.slice(design.indexOf('| from | to | port |'));
  const rows = table
    .split('\n')
    .slice(2)
    .filter((line) => line.startsWith('|'));
  const list = (cell: string) => cell.split(',').map((item) => item.trim());
  const running = new Set(podsOf(objects).map((pod) => pod.name));
  const flows = rows.flatMap((row) => {
    const [, from = '', to = '', port = ''] = row.split('|');
    return list(from).flatMap((source) =>
      list(to)
        .filter((target) => running.has(target))
        .map((target) => `${source} -> ${target}:${port.trim()}`),
    );
  });
  return [...new Set(flows)].sort();
}

describe.each(['dev', 'prod'])('the %s overlay’s network policies', (overlay) => {
  const objects = renderKustomization(`k8s/overlays/${overlay}`);

  it('allow exactly the flows of the architecture (docs/design.md), and no other', () => {
    const documented = documentedFlows(objects);
    expect(documented.length).toBeGreaterThan(0);
    expect(allowedFlows(objects)).toEqual(documented);
  });

  it('deny by default: one policy selects every pod and allows nothing', () => {
    const deny = ofKind(objects, 'NetworkPolicy').filter(
      (policy) => Object.keys(policy.spec.podSelector).length === 0,
    );
    expect(deny.map((policy) => policy.spec)).toEqual([{ podSelector: {}, policyTypes: ['Ingress'] }]);
  });
});

describe('the flow check itself', () => {
  const dev = renderKustomization('k8s/overlays/dev');
  const policy = (objects: K8sObject[], name: string) => named(objects, 'NetworkPolicy', name);

  it('when a policy lets a pod in from anywhere, the flow shows as from anyone', () => {
    const opened = structuredClone(dev);
    policy(opened, 'redis-from-services').spec.ingress = [{ ports: [{ port: 6379 }] }];
    expect(allowedFlows(opened)).toContain('anyone -> redis:redis');
  });

  it('when a service is missing from a policy, its flow is missing', () => {
    const narrowed = structuredClone(dev);
    const [rule] = policy(narrowed, 'redis-from-services').spec.ingress!;
    rule!.from = [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }];
    expect(allowedFlows(narrowed)).not.toContain('email-detector -> redis:redis');
    expect(allowedFlows(narrowed)).toContain('gateway -> redis:redis');
  });
});
