// The Kubernetes manifests, checked without a cluster: the overlay rendered in-test (base +
// patches, support/kustomize.ts), every object validated against the Kubernetes OpenAPI schemas
// (kubernetes-models), then the cross-references — Secret/ConfigMap keys, Service selectors and
// target ports, probes against what each service serves, the variables each service reads.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { ROOT } from '../../scripts/lib/local-env.js';
import { TOPIC_PARTITIONS, TOPICS } from '../../services/shared/src/messages.js';
import { LIVENESS_SERVICE } from '../../services/shared/src/observability/health.js';
import { CAMPAIGN_GRPC_SERVICE } from '../../services/campaign/src/server.js';
import { containersOf, podSpecOf, readYamlDocuments, renderKustomization, type Resource } from './support/kustomize.js';
import { documentedVariables, serviceEnv, type ServiceName } from './support/service-env.js';

const K8S = path.join(ROOT, 'deploy/k8s');
const OVERLAYS = readdirSync(path.join(K8S, 'overlays'));
const SERVICES: ServiceName[] = ['gateway', 'campaign', 'delivery'];

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

// Tests render with the committed example when an operator's secrets.env is absent.
const render = (dir: string) => renderKustomization(dir, { envFile: (file) => `${file}.example` });
const find = (rs: Resource[], kind: string, name: string) => rs.find((r) => r.kind === kind && r.metadata.name === name);

/** Resolves a container's env to literal values where it can (secret/config refs → the referenced value or a marker). */
function containerEnv(rs: Resource[], container: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.configMapKeyRef) env[e.name] = find(rs, 'ConfigMap', e.valueFrom.configMapKeyRef.name)?.data?.[e.valueFrom.configMapKeyRef.key] ?? '<missing>';
    else if (e.valueFrom?.secretKeyRef) env[e.name] = '<secret>';
  }
  for (const from of container.envFrom ?? []) {
    const cm = from.configMapRef && find(rs, 'ConfigMap', from.configMapRef.name);
    Object.assign(env, cm?.data ?? {});
  }
  return env;
}

function portNumber(container: any, port: number | string): number | undefined {
  if (typeof port === 'number') return container.ports?.some((p: any) => p.containerPort === port) ? port : undefined;
  return container.ports?.find((p: any) => p.name === port)?.containerPort;
}

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('has a kustomize base and at least one overlay', () => {
    expect(existsSync(path.join(K8S, 'base/kustomization.yaml'))).to.equal(true);
    expect(OVERLAYS.length).to.be.greaterThan(0);
  });

  for (const overlay of OVERLAYS) {
    describe(`overlay ${overlay}`, () => {
      const rs = render(path.join(K8S, 'overlays', overlay));
      const deployment = (name: string) => find(rs, 'Deployment', name)!;
      const container = (name: string) => deployment(name).spec.template.spec.containers.find((c: any) => c.name === name);

      it('renders only objects that validate against the Kubernetes OpenAPI schemas', () => {
        expect(rs.length).to.be.greaterThan(10);
        for (const r of rs) {
          const Model = MODELS[`${r.apiVersion}/${r.kind}`];
          expect(Model, `no schema check for ${r.apiVersion} ${r.kind}`).to.not.equal(undefined);
          expect(() => new Model(r).validate(), `${r.kind}/${r.metadata.name}`).to.not.throw();
        }
        // The check has teeth.
        const broken = structuredClone(deployment('gateway'));
        broken.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
        expect(() => new Deployment(broken).validate()).to.throw(/containerPort/);
      });

      it('has Deployments, Services and PodDisruptionBudgets for the three services, a migrations Job and an HPA for delivery', () => {
        for (const name of SERVICES) {
          expect(deployment(name), name).to.not.equal(undefined);
          expect(find(rs, 'Service', name), name).to.not.equal(undefined);
          expect(find(rs, 'PodDisruptionBudget', name), name).to.not.equal(undefined);
        }
        const job = find(rs, 'Job', 'webpush-migrate')!;
        const command = containersOf(job)[0].command.join(' ');
        expect(command).to.include('node dist/scripts/cli.js migrate').and.include('node dist/scripts/cli.js kafka create-topics');
        for (const c of rs.flatMap(containersOf)) expect([...(c.command ?? []), ...(c.args ?? [])].join(' '), c.name).to.not.match(/tsx|\.ts\b|esbuild/);
        const hpa = find(rs, 'HorizontalPodAutoscaler', 'delivery')!;
        expect(hpa.spec.scaleTargetRef).to.deep.include({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'delivery' });
        // More delivery replicas than chunk partitions would idle: the HPA stops at the partitions.
        expect(hpa.spec.maxReplicas).to.be.at.most(TOPIC_PARTITIONS[TOPICS.chunks]);
        expect(hpa.spec.minReplicas).to.be.at.least(1);
      });

      it('refers only to Secrets and ConfigMaps (and keys) that the render contains', () => {
        for (const r of rs) {
          for (const c of containersOf(r)) {
            for (const e of c.env ?? []) {
              const ref = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
              if (!ref) continue;
              const kind = e.valueFrom.secretKeyRef ? 'Secret' : 'ConfigMap';
              const target = find(rs, kind, ref.name);
              expect(target, `${r.metadata.name}: ${kind} ${ref.name}`).to.not.equal(undefined);
              expect(Object.keys(target!.data ?? {}), `${r.metadata.name}: ${kind} ${ref.name} key ${ref.key}`).to.include(ref.key);
            }
            for (const from of c.envFrom ?? []) {
              const ref = from.secretRef ?? from.configMapRef;
              expect(find(rs, from.secretRef ? 'Secret' : 'ConfigMap', ref.name), ref.name).to.not.equal(undefined);
            }
          }
        }
      });

      it('gives every container resource requests and limits, a non-root user and a read-only root', () => {
        for (const r of rs) {
          const spec = podSpecOf(r);
          if (!spec) continue;
          expect(spec.securityContext?.runAsNonRoot, r.metadata.name).to.equal(true);
          for (const c of containersOf(r)) {
            for (const k of ['cpu', 'memory']) {
              expect(c.resources?.requests?.[k], `${c.name} requests.${k}`).to.not.equal(undefined);
              expect(c.resources?.limits?.[k], `${c.name} limits.${k}`).to.not.equal(undefined);
            }
            expect(c.securityContext?.allowPrivilegeEscalation, c.name).to.equal(false);
            expect(c.securityContext?.readOnlyRootFilesystem, c.name).to.equal(true);
            // The one writable place (the CLI's WEBPUSH_DATA_DIR, Node's and libraries' temporary files).
            expect(c.volumeMounts?.map((m: any) => m.mountPath), c.name).to.include('/tmp');
          }
        }
      });

      it('rewrites every image to the overlay registry and tag', () => {
        for (const c of rs.flatMap(containersOf)) expect(c.image, c.name).to.match(/^[a-z0-9.-]+\.[a-z]+\/webpush\/(gateway|campaign|delivery|tools):\d+\.\d+\.\d+$/);
      });

      it('puts every namespaced object in the overlay namespace', () => {
        const ns = rs.find((r) => r.kind === 'Namespace')?.metadata.name;
        expect(ns).to.be.a('string');
        for (const r of rs) if (r.kind !== 'Namespace') expect(r.metadata.namespace, `${r.kind}/${r.metadata.name}`).to.equal(ns);
      });

      it('gives each service every variable its config.ts requires; every other one it reads is set or documented with a default', () => {
        const documented = documentedVariables();
        for (const name of SERVICES) {
          const env = containerEnv(rs, container(name));
          const { reads, required } = serviceEnv(name);
          for (const v of required) expect(env[v], `${name}: ${v}`).to.be.a('string').and.not.equal('');
          for (const v of reads) {
            if (v in env) {
              expect(env[v], `${name}: ${v}`).to.not.equal('<missing>');
              continue;
            }
            const doc = documented.get(v);
            expect(doc, `${name} reads ${v}: set it in its Deployment or document it in the README`).to.not.equal(undefined);
            expect(doc!.default, `${name}: ${v}`).to.not.match(/required/i);
          }
          for (const v of Object.keys(env)) expect(reads, `${name} is given ${v}, which it never reads`).to.include(v);
        }
      });

      it('listens where the Services, probes and peers look: ports, probes and targets match what each service serves', () => {
        const env = Object.fromEntries(SERVICES.map((n) => [n, containerEnv(rs, container(n))])) as Record<ServiceName, Record<string, string>>;
        for (const n of SERVICES) for (const [k, v] of Object.entries(env[n])) if (/_HOST$/.test(k)) expect(v, `${n} ${k}`).to.equal('0.0.0.0');

        const port = (n: ServiceName, p: number | string) => portNumber(container(n), p);
        // gateway and delivery: HTTP probes on the ops port (the public and plugin ports serve no
        // readiness or metrics), liveness on /healthz, readiness on /readyz
        for (const [n, httpPortVar] of [['gateway', 'GATEWAY_OPS_PORT'], ['delivery', 'DELIVERY_OPS_PORT']] as const) {
          const c = container(n);
          for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
            expect(c[probe]?.httpGet, `${n} ${probe}`).to.not.equal(undefined);
            expect(port(n, c[probe].httpGet.port), `${n} ${probe} port`).to.equal(Number(env[n][httpPortVar]));
          }
          expect(c.livenessProbe.httpGet.path).to.equal('/healthz');
          expect(c.readinessProbe.httpGet.path).to.equal('/readyz');
        }
        // campaign: native gRPC probes against the health service it registers
        const campaign = container('campaign');
        for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
          expect(campaign[probe]?.grpc?.port, `campaign ${probe}`).to.equal(Number(env.campaign.CAMPAIGN_GRPC_PORT));
          expect(port('campaign', campaign[probe].grpc.port)).to.not.equal(undefined);
        }
        expect(campaign.livenessProbe.grpc.service).to.equal(LIVENESS_SERVICE);
        expect(campaign.readinessProbe.grpc.service).to.equal(CAMPAIGN_GRPC_SERVICE);
        expect(port('campaign', 'metrics')).to.equal(Number(env.campaign.CAMPAIGN_METRICS_PORT));
        expect(port('delivery', 'grpc')).to.equal(Number(env.delivery.DELIVERY_GRPC_PORT));

        // peers: targets name the Services on the ports those Services expose
        const servicePort = (svc: string, targetPortNumber: number) => {
          const s = find(rs, 'Service', svc)!;
          const c = container(svc);
          return s.spec.ports.find((p: any) => portNumber(c, p.targetPort) === targetPortNumber)?.port;
        };
        expect(env.gateway.CAMPAIGN_GRPC_TARGET).to.equal(`campaign:${servicePort('campaign', Number(env.campaign.CAMPAIGN_GRPC_PORT))}`);
        expect(env.gateway.AUDIENCE_GRPC_TARGET).to.equal(`delivery:${servicePort('delivery', Number(env.delivery.DELIVERY_GRPC_PORT))}`);
        expect(env.campaign.AUDIENCE_GRPC_TARGET).to.equal(env.gateway.AUDIENCE_GRPC_TARGET);
        expect(env.gateway.DELIVERY_HTTP_URL).to.equal(`http://delivery:${servicePort('delivery', Number(env.delivery.DELIVERY_HTTP_PORT))}`);

        // Prometheus annotations point at a port that serves /metrics
        for (const n of SERVICES) {
          const a = deployment(n).spec.template.metadata.annotations;
          expect(port(n, Number(a['prometheus.io/port'])), `${n} metrics port`).to.not.equal(undefined);
          expect(a['prometheus.io/path']).to.equal('/metrics');
        }
      });

      it('selects pods that exist: Services, PodDisruptionBudgets and Deployments agree on labels and named ports', () => {
        const pods = rs.filter((r) => r.kind === 'Deployment');
        const matching = (selector: Record<string, string>) =>
          pods.filter((d) => Object.entries(selector).every(([k, v]) => d.spec.template.metadata.labels?.[k] === v));
        for (const d of pods) {
          expect(matching(d.spec.selector.matchLabels), `${d.metadata.name} selector`).to.deep.equal([d]);
        }
        for (const s of rs.filter((r) => r.kind === 'Service')) {
          const targets = matching(s.spec.selector);
          expect(targets, `Service ${s.metadata.name}`).to.have.length(1);
          for (const p of s.spec.ports) {
            const c = targets[0].spec.template.spec.containers;
            expect(c.some((x: any) => portNumber(x, p.targetPort) !== undefined), `Service ${s.metadata.name} port ${p.name}`).to.equal(true);
          }
        }
        for (const pdb of rs.filter((r) => r.kind === 'PodDisruptionBudget')) {
          expect(matching(pdb.spec.selector.matchLabels), `PDB ${pdb.metadata.name}`).to.have.length(1);
        }
      });

      it('closes every pod to incoming traffic except each service\'s callers (NetworkPolicies on named ports that exist)', () => {
        const policies = rs.filter((r) => r.kind === 'NetworkPolicy');
        const deny = policies.find((p) => Object.keys(p.spec.podSelector).length === 0);
        expect(deny?.spec.policyTypes, 'a default deny for ingress').to.deep.equal(['Ingress']);
        expect(deny?.spec.ingress ?? []).to.deep.equal([]);
        const app = (labels: Record<string, string> | undefined) => labels?.['app.kubernetes.io/name'];
        // Who may reach each (service, named port): '*' = anyone, 'monitoring' = that namespace.
        const reach = new Map<string, Set<string>>();
        for (const p of policies.filter((x) => x !== deny)) {
          const target = app(p.spec.podSelector.matchLabels)!;
          expect(SERVICES, `${p.metadata.name} selects a service`).to.include(target);
          for (const rule of p.spec.ingress ?? []) {
            const sources = rule.from ? rule.from.map((f: any) => app(f.podSelector?.matchLabels) ?? f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']) : ['*'];
            for (const { port } of rule.ports) {
              expect(portNumber(container(target), port), `${target} has a port named ${port}`).to.not.equal(undefined);
              const key = `${target}:${port}`;
              reach.set(key, new Set([...(reach.get(key) ?? []), ...sources]));
            }
          }
        }
        const who = (key: string) => [...(reach.get(key) ?? [])].sort();
        expect(who('gateway:http')).to.deep.equal(['*']);
        expect(who('campaign:grpc')).to.deep.equal(['gateway']);
        expect(who('delivery:grpc')).to.deep.equal(['campaign', 'gateway']);
        expect(who('delivery:http')).to.deep.equal(['gateway']);
        for (const [key, sources] of reach) if (!['gateway:http', 'campaign:grpc', 'delivery:grpc', 'delivery:http'].includes(key)) expect([...sources], key).to.deep.equal(['monitoring']);
      });
    });
  }

  it('keeps the base environment-neutral: no namespace, no Secret (overlays provide it)', () => {
    const base = render(path.join(K8S, 'base'));
    expect(base.filter((r) => r.metadata.namespace)).to.deep.equal([]);
    expect(base.filter((r) => r.kind === 'Secret')).to.deep.equal([]);
    for (const file of readdirSync(path.join(K8S, 'base')).filter((f) => f.endsWith('.yaml'))) {
      expect(() => readYamlDocuments(path.join(K8S, 'base', file)), file).to.not.throw();
    }
  });
});
