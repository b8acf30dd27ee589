/** The parts of Kubernetes and Compose objects the deployment tests read (everything else is ignored). */

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
  };
}

export interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  startupProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface PodSpec {
  containers: Container[];
  volumes?: {
    name: string;
    secret?: { secretName: string };
    configMap?: { name: string };
    persistentVolumeClaim?: { claimName: string };
  }[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number; fsGroup?: number };
  automountServiceAccountToken?: boolean;
  terminationGracePeriodSeconds?: number;
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}

interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
}

export type K8sObject =
  | { kind: 'Deployment'; metadata: Metadata; spec: DeploymentSpec }
  | { kind: 'Service'; metadata: Metadata; spec: ServiceSpec }
  | { kind: 'ConfigMap'; metadata: Metadata; data?: Record<string, string> }
  | { kind: 'Secret'; metadata: Metadata; data?: Record<string, string>; stringData?: Record<string, string> }
  | { kind: 'HorizontalPodAutoscaler'; apiVersion: string; metadata: Metadata; spec: HpaSpec }
  | { kind: 'PodDisruptionBudget'; metadata: Metadata; spec: { selector: LabelSelector } }
  | { kind: 'NetworkPolicy'; metadata: Metadata; spec: NetworkPolicySpec }
  | { kind: 'Ingress'; metadata: Metadata; spec: IngressSpec }
  | { kind: 'Namespace'; metadata: Metadata }
  | { kind: 'StatefulSet' | 'PersistentVolumeClaim'; metadata: Metadata };

export type Kind = K8sObject['kind'];
export type OfKind<K extends Kind> = Extract<K8sObject, { kind: K }>;

interface DeploymentSpec {
  replicas?: number;
  selector: LabelSelector;
  template: {
    metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
    spec: PodSpec;
  };
}

interface ServiceSpec {
  selector: Record<string, string>;
  ports: { name?: string; port: number; targetPort?: string | number }[];
}

interface HpaSpec {
  scaleTargetRef: { kind: string; name: string };
  minReplicas: number;
  maxReplicas: number;
}

export interface NetworkPolicySpec {
  podSelector: LabelSelector;
  policyTypes?: string[];
  ingress?: { from?: NetworkPolicyPeer[]; ports?: { port: string | number; protocol?: string }[] }[];
}

interface IngressSpec {
  tls?: { hosts?: string[]; secretName?: string }[];
  rules: {
    host?: string;
    http: {
      paths: {
        path: string;
        pathType: string;
        backend: { service: { name: string; port: { name?: string } } };
      }[];
    };
  }[];
}

export interface ComposeService {
  image?: string;
  build?: { context: string; target: string; args?: string[] };
  user?: string;
  hostname?: string;
  environment?: Record<string, string | number | null>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
  read_only?: boolean;
  cap_drop?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}
