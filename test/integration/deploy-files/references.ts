import type { Container, K8sObject, LabelSelector, PodSpec } from './manifests';

/**
 * What rendered manifests refer to and must find: pods for every selector, container ports for every Service
 * and probe port, the ConfigMaps and Secrets that env, envFrom and volumes name (rendered, or in `external`:
 * created by the operator), Deployments for HPA targets, Services for Ingress backends. One line per miss.
 */
export function referenceProblems(objects: K8sObject[], external: { secrets: string[] }): string[] {
  const pods = objects.flatMap((object) =>
    object.kind === 'Deployment'
      ? [
          {
            name: object.metadata.name,
            labels: object.spec.template.metadata.labels,
            spec: object.spec.template.spec,
          },
        ]
      : [],
  );
  const selected = (selector: LabelSelector) => pods.filter((pod) => matches(selector, pod.labels));
  const problems: string[] = [];
  const names = (kind: string) =>
    objects.filter((object) => object.kind === kind).map((object) => object.metadata.name);

  for (const object of objects) {
    const where = `${object.kind} ${object.metadata.name}`;
    switch (object.kind) {
      case 'Deployment':
        if (!matches(object.spec.selector, object.spec.template.metadata.labels))
          problems.push(`${where}: its selector does not match its pod template's labels`);
        problems.push(...podProblems(where, object.spec.template.spec, names, external));
        break;
      case 'Service': {
        const targets = selected({ matchLabels: object.spec.selector });
        if (targets.length === 0) problems.push(`${where}: its selector matches no pods`);
        for (const port of object.spec.ports)
          for (const pod of targets)
            if (!hasPort(pod.spec.containers, port.targetPort ?? port.port))
              problems.push(`${where}: targetPort ${port.targetPort ?? port.port} is no port of ${pod.name}`);
        break;
      }
      case 'PodDisruptionBudget':
        if (selected(object.spec.selector).length === 0)
          problems.push(`${where}: its selector matches no pods`);
        break;
      case 'HorizontalPodAutoscaler': {
        const { kind, name } = object.spec.scaleTargetRef;
        if (!names(kind).includes(name))
          problems.push(`${where}: targets ${kind} ${name}, which does not exist`);
        break;
      }
      case 'NetworkPolicy': {
        const { podSelector, ingress = [] } = object.spec;
        const guarded = selected(podSelector);
        if (Object.keys(podSelector).length > 0 && guarded.length === 0)
          problems.push(`${where}: its podSelector matches no pods`);
        for (const rule of ingress) {
          for (const peer of rule.from ?? [])
            if (peer.podSelector && !peer.namespaceSelector && selected(peer.podSelector).length === 0)
              problems.push(`${where}: a peer's podSelector matches no pods`);
          for (const { port } of rule.ports ?? [])
            if (!guarded.some((pod) => hasPort(pod.spec.containers, port)))
              problems.push(`${where}: port ${port} is no port of the pods it guards`);
        }
        break;
      }
      case 'Ingress':
        for (const path of object.spec.rules.flatMap((rule) => rule.http.paths)) {
          const { name, port } = path.backend.service;
          const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === name);
          if (service?.kind !== 'Service') problems.push(`${where}: backend Service ${name} does not exist`);
          else if (!service.spec.ports.some((p) => p.name === port.name))
            problems.push(`${where}: Service ${name} has no port ${port.name}`);
        }
        for (const tls of object.spec.tls ?? [])
          if (
            tls.secretName &&
            !names('Secret').includes(tls.secretName) &&
            !external.secrets.includes(tls.secretName)
          )
            problems.push(
              `${where}: TLS Secret ${tls.secretName} is neither rendered nor created by the operator`,
            );
        break;
      case 'ConfigMap':
      case 'Secret':
      case 'Namespace':
      case 'PersistentVolumeClaim':
      case 'StatefulSet':
        break; // referred to, referring to nothing
    }
  }
  return problems;
}

function podProblems(
  where: string,
  pod: PodSpec,
  names: (kind: string) => string[],
  external: { secrets: string[] },
): string[] {
  const problems: string[] = [];
  const secret = (name: string) => {
    if (!names('Secret').includes(name) && !external.secrets.includes(name))
      problems.push(`${where}: Secret ${name} is neither rendered nor created by the operator`);
  };
  const configMap = (name: string) => {
    if (!names('ConfigMap').includes(name)) problems.push(`${where}: ConfigMap ${name} does not exist`);
  };
  for (const container of pod.containers) {
    for (const source of container.envFrom ?? []) {
      if (source.configMapRef) configMap(source.configMapRef.name);
      if (source.secretRef) secret(source.secretRef.name);
    }
    for (const { valueFrom } of container.env ?? []) {
      if (valueFrom?.configMapKeyRef) configMap(valueFrom.configMapKeyRef.name);
      if (valueFrom?.secretKeyRef) secret(valueFrom.secretKeyRef.name);
    }
    for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe])
      if (probe?.httpGet && !hasPort([container], probe.httpGet.port))
        problems.push(
          `${where}: a probe of ${container.name} uses port ${probe.httpGet.port}, which it does not declare`,
        );
    const volumes = (pod.volumes ?? []).map((volume) => volume.name);
    for (const mount of container.volumeMounts ?? [])
      if (!volumes.includes(mount.name))
        problems.push(`${where}: volume ${mount.name} is mounted but not defined`);
  }
  for (const volume of pod.volumes ?? []) {
    if (volume.secret) secret(volume.secret.secretName);
    if (volume.configMap) configMap(volume.configMap.name);
    const claim = volume.persistentVolumeClaim?.claimName;
    if (claim && !names('PersistentVolumeClaim').includes(claim))
      problems.push(`${where}: PersistentVolumeClaim ${claim} does not exist`);
  }
  return problems;
}

function hasPort(containers: Container[], port: string | number): boolean {
  return containers.some((container) =>
    (container.ports ?? []).some((p) =>
      typeof port === 'number' ? p.containerPort === port : p.name === port,
    ),
  );
}

export const matches = (selector: LabelSelector, labels: Record<string, string>): boolean =>
  Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) &&
  (selector.matchExpressions ?? []).every(
    ({ key, operator, values }) => operator === 'In' && (values ?? []).includes(labels[key] ?? ''),
  );
