// The Kubernetes manifests, checked without a cluster: the overlay rendered in-test (base +
// patches, support/kustomize.ts; compared with `kubectl kustomize` where kubectl is installed),
// every object validated against the Kubernetes OpenAPI schemas (kubernetes-models, and the
// prometheus-operator models for the PodMonitors) with unknown fields rejected
// (support/strict-validate.ts), then the cross-references — Secret/ConfigMap keys, Service
// selectors and target ports, probes against what each service serves, the variables each
// service reads, the Ingress's paths, the PodMonitors' ports — and what makes a second
// `kubectl apply` safe: no replica count under an HPA, a migrations Job per version.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { ROOT } from '../../scripts/lib/local-env.js';
import { LIVENESS_SERVICE } from '@webpush/shared/observability/health.js';
import { CAMPAIGN_GRPC_SERVICE } from '../../services/campaign/src/grpc-server.js';
import { IMPORT_BODY_LIMIT_BYTES } from '../../gateway/src/routes/audience.js';
import { containersOf, podSpecOf, readYamlDocuments, renderKustomization, type RenderOptions, type Resource } from './support/kustomize.js';
import { validateStrict } from './support/strict-validate.js';
import { documentedVariables, serviceEnv, type ServiceName } from './support/service-env.js';

const K8S = path.join(ROOT, 'deploy/k8s');
const OVERLAYS = readdirSync(path.join(K8S, 'overlays'));
const SERVICES: ServiceName[] = ['gateway', 'campaign', 'delivery'];

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'monitoring.coreos.com/v1/PodMonitor': PodMonitor,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

// Tests render with the committed example when an operator's secrets.env is absent.
const render = (dir: string, edit?: RenderOptions['edit']) => renderKustomization(dir, { envFile: (file) => `${file}.example`, edit });
const find = (rs: Resource[], kind: string, name: string) => rs.find((r) => r.kind === kind && r.metadata.name === name);
/** The migrations Job (its name carries the version in overlays). */
const migrateJob = (rs: Resource[]) => {
  const jobs = rs.filter((r) => r.kind === 'Job' && r.metadata.labels?.['app.kubernetes.io/name'] === 'migrate');
  expect(jobs, 'one migrations Job').to.have.length(1);
  return jobs[0];
};
const validate = (r: Resource) => {
  const Model = MODELS[`${r.apiVersion}/${r.kind}`];
  expect(Model, `no schema check for ${r.apiVersion} ${r.kind}`).to.not.equal(undefined);
  validateStrict(new Model(r), `${r.kind}/${r.metadata.name}`);
};

/** Deployments an HPA scales whose spec sets replicas (each `kubectl apply` would reset the count under the HPA). */
function replicasUnderHpa(rs: Resource[]): string[] {
  return rs
    .filter((r) => r.kind === 'HorizontalPodAutoscaler' && r.spec.scaleTargetRef.kind === 'Deployment')
    .map((hpa) => find(rs, 'Deployment', hpa.spec.scaleTargetRef.name))
    .filter((d): d is Resource => d !== undefined && d.spec.replicas !== undefined)
    .map((d) => d.metadata.name);
}

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
        for (const r of rs) validate(r);
        // The check has teeth: a wrong type, and fields the schema does not know (a misspelt
        // field would be dropped by the API server, silently).
        const broken = structuredClone(deployment('gateway'));
        broken.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
        expect(() => validate(broken)).to.throw(/containerPort/);
        const misspelt = structuredClone(deployment('gateway'));
        misspelt.spec.replica = 2;
        misspelt.spec.template.spec.containers[0].readinesProbe = {};
        expect(() => validate(misspelt)).to.throw(/spec\.replica\b/);
        expect(() => validate(misspelt)).to.throw(/containers\[0\]\.readinesProbe/);
        const ingress = structuredClone(rs.find((r) => r.kind === 'Ingress')!);
        ingress.spec.rules[0].http.paths[0].backend.service.port.nmae = 'http';
        expect(() => validate(ingress)).to.throw(/port\.nmae/);
      });

      it('leaves the replica count to the HPA: no Deployment an HPA scales sets replicas', () => {
        expect(rs.filter((r) => r.kind === 'HorizontalPodAutoscaler')).to.not.deep.equal([]);
        expect(replicasUnderHpa(rs)).to.deep.equal([]);
        // The check has teeth: the overlay's `replicas:` field for an HPA's target is caught too.
        const withCount = render(path.join(K8S, 'overlays', overlay), (k) => {
          k.replicas = [...(k.replicas ?? []), { name: 'delivery', count: 2 }];
        });
        expect(replicasUnderHpa(withCount)).to.deep.equal(['delivery']);
      });

      it('names the migrations Job after the tools image tag, so each version\'s Job is a new object', () => {
        const job = migrateJob(rs);
        const tag = (r: Resource) => containersOf(r)[0].image.split(':').pop();
        expect(job.metadata.name).to.equal(`webpush-migrate-${tag(job)}`);
        // Pods get the Job's name as a label value: 63 characters at most, DNS-1123.
        expect(job.metadata.name).to.match(/^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/);
        expect(job.spec.ttlSecondsAfterFinished, 'finished Jobs are cleaned up').to.be.a('number');
        // The next version: a Job of another name, and nothing else renamed.
        const next = render(path.join(K8S, 'overlays', overlay), (k) => {
          for (const img of k.images) if (img.name === 'webpush/tools') img.newTag = '0.3.0';
        });
        expect(migrateJob(next).metadata.name).to.equal('webpush-migrate-0.3.0');
        const names = (x: Resource[]) => x.filter((r) => r.kind !== 'Job').map((r) => `${r.kind}/${r.metadata.name}`);
        expect(names(next)).to.deep.equal(names(rs));
      });

      it('routes only /v2, /public and /console to the gateway\'s public port, over TLS from cert-manager', () => {
        const ingresses = rs.filter((r) => r.kind === 'Ingress');
        expect(ingresses).to.have.length(1);
        const [ing] = ingresses;
        expect(ing.spec.defaultBackend, 'no catch-all backend').to.equal(undefined);
        expect(ing.metadata.annotations?.['cert-manager.io/cluster-issuer'] ?? ing.metadata.annotations?.['cert-manager.io/issuer']).to.be.a('string').and.not.equal('');
        const hosts = ing.spec.rules.map((r: any) => r.host);
        expect(hosts.every((h: unknown) => typeof h === 'string' && h !== ''), 'every rule names its host').to.equal(true);
        const tlsHosts = ing.spec.tls.flatMap((t: any) => t.hosts);
        for (const h of hosts) expect(tlsHosts, `TLS for ${h}`).to.include(h);
        for (const t of ing.spec.tls) expect(t.secretName, 'cert-manager fills a named Secret').to.be.a('string');

        const gatewayService = find(rs, 'Service', 'gateway')!;
        const httpPort = portNumber(container('gateway'), 'http');
        for (const rule of ing.spec.rules) {
          const paths = rule.http.paths.map((p: any) => `${p.pathType} ${p.path}`).sort();
          expect(paths, rule.host).to.deep.equal(['Prefix /console', 'Prefix /public', 'Prefix /v2']);
          for (const p of rule.http.paths) {
            const { name, port } = p.backend.service;
            expect(name, p.path).to.equal('gateway');
            const servicePort = gatewayService.spec.ports.find((sp: any) => (port.name !== undefined ? sp.name === port.name : sp.port === port.number));
            expect(servicePort, `${p.path}: Service port`).to.not.equal(undefined);
            // The public listener, never the ops port (/readyz, /metrics).
            expect(portNumber(container('gateway'), servicePort.targetPort), p.path).to.equal(httpPort);
            expect(portNumber(container('gateway'), servicePort.targetPort), p.path).to.not.equal(Number(containerEnv(rs, container('gateway')).GATEWAY_OPS_PORT));
          }
        }
      });

      it('lets bodies up to the gateway\'s largest limit (the 2 MiB import) through ingress-nginx, so the gateway answers 413 itself', () => {
        const [ing] = rs.filter((r) => r.kind === 'Ingress');
        expect(ing.spec.ingressClassName).to.equal('nginx');
        const raw = ing.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
        // nginx's size syntax: bytes, or k / m / g (powers of 1024); 0 would mean unlimited.
        const m = /^(\d+)([kmg]?)$/i.exec(String(raw));
        expect(m, `proxy-body-size ${raw}`).to.not.equal(null);
        const bytes = Number(m![1]) * 1024 ** ' kmg'.indexOf((m![2] || ' ').toLowerCase());
        expect(bytes, 'a limit, not unlimited').to.be.greaterThan(0);
        expect(bytes).to.be.greaterThan(IMPORT_BODY_LIMIT_BYTES);
        expect(bytes).to.be.greaterThan(Number(containerEnv(rs, container('gateway')).BODY_LIMIT_BYTES ?? 102_400));
      });

      it('has Deployments, Services and PodDisruptionBudgets for the three services, a migrations Job and an HPA for delivery', () => {
        for (const name of SERVICES) {
          expect(deployment(name), name).to.not.equal(undefined);
          expect(find(rs, 'Service', name), name).to.not.equal(undefined);
          expect(find(rs, 'PodDisruptionBudget', name), name).to.not.equal(undefined);
        }
        const job = migrateJob(rs);
        const command = containersOf(job)[0].command.join(' ');
        expect(command).to.include('node dist/scripts/cli.js migrate').and.include('node dist/scripts/cli.js kafka create-topics');
        for (const c of rs.flatMap(containersOf)) expect([...(c.command ?? []), ...(c.args ?? [])].join(' '), c.name).to.not.match(/tsx|\.ts\b|esbuild/);
        const hpa = find(rs, 'HorizontalPodAutoscaler', 'delivery')!;
        expect(hpa.spec.scaleTargetRef).to.deep.include({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'delivery' });
        expect(hpa.spec.minReplicas).to.be.at.least(1);
      });

      it('sets the chunk partitions once, for every process that creates topics, and the HPA stops at them', () => {
        // KAFKA_CHUNK_PARTITIONS comes from the ConfigMap in the migrations Job (create-topics)
        // and in both services (each makes the topics so at start): one value, or the last to
        // start would decide.
        const config = find(rs, 'ConfigMap', 'webpush-config')!;
        const partitions = Number(config.data.KAFKA_CHUNK_PARTITIONS);
        expect(partitions, 'KAFKA_CHUNK_PARTITIONS').to.be.a('number').and.to.be.at.least(1);
        for (const r of [migrateJob(rs), deployment('campaign'), deployment('delivery')]) {
          const env = containersOf(r)[0].env.find((e: any) => e.name === 'KAFKA_CHUNK_PARTITIONS');
          expect(env?.valueFrom?.configMapKeyRef, r.metadata.name).to.deep.equal({ name: 'webpush-config', key: 'KAFKA_CHUNK_PARTITIONS' });
        }
        // More delivery replicas than chunk partitions would idle: the HPA stops at the partitions.
        const hpa = find(rs, 'HorizontalPodAutoscaler', 'delivery')!;
        expect(hpa.spec.maxReplicas).to.be.at.most(partitions);
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
            expect(doc, `${name} reads ${v}: set it in its Deployment or document it in docs/configuration.md`).to.not.equal(undefined);
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
        // The operator CLI's pod reaches both services' admin APIs (operator-cli.yaml).
        expect(who('campaign:grpc')).to.deep.equal(['gateway', 'operator-cli']);
        expect(who('delivery:grpc')).to.deep.equal(['campaign', 'gateway', 'operator-cli']);
        expect(who('delivery:http')).to.deep.equal(['gateway']);
        for (const [key, sources] of reach) if (!['gateway:http', 'campaign:grpc', 'delivery:grpc', 'delivery:http'].includes(key)) expect([...sources], key).to.deep.equal(['monitoring']);
      });
    });
  }

  it('sets no replicas on a Deployment an HPA scales, in the base either', () => {
    const base = render(path.join(K8S, 'base'));
    expect(base.filter((r) => r.kind === 'HorizontalPodAutoscaler').length).to.be.greaterThan(0);
    expect(replicasUnderHpa(base)).to.deep.equal([]);
  });

  describe('PodMonitors (deploy/k8s/monitoring)', () => {
    const monitors = render(path.join(K8S, 'monitoring'));
    const production = render(path.join(K8S, 'overlays/production'));

    it('validate against the prometheus-operator schemas, one per service, in the production namespace', () => {
      for (const m of monitors) validate(m);
      expect(monitors.map((m) => `${m.kind}/${m.metadata.name}`).sort()).to.deep.equal(SERVICES.map((n) => `PodMonitor/${n}`).sort());
      const ns = production.find((r) => r.kind === 'Namespace')!.metadata.name;
      for (const m of monitors) expect(m.metadata.namespace, m.metadata.name).to.equal(ns);
      const broken = structuredClone(monitors[0]);
      broken.spec.podMetricsEndpoints[0].paht = '/metrics';
      expect(() => validate(broken)).to.throw(/paht/);
    });

    it('scrape each service\'s pods on the port that serves /metrics, which the NetworkPolicies open to monitoring', () => {
      const policies = production.filter((r) => r.kind === 'NetworkPolicy');
      for (const m of monitors) {
        const pods = production.filter((d) => d.kind === 'Deployment' && Object.entries(m.spec.selector.matchLabels).every(([k, v]) => d.spec.template.metadata.labels?.[k] === v));
        expect(pods.map((d) => d.metadata.name), m.metadata.name).to.deep.equal([m.metadata.name]);
        const [d] = pods;
        const c = d.spec.template.spec.containers.find((x: any) => x.name === m.metadata.name);
        // The Deployment's own statement of where /metrics is (checked against the service's
        // listen variables in the overlay tests above).
        const metricsPort = Number(d.spec.template.metadata.annotations['prometheus.io/port']);
        expect(m.spec.podMetricsEndpoints).to.have.length(1);
        for (const e of m.spec.podMetricsEndpoints) {
          expect(portNumber(c, e.port), `${m.metadata.name} port ${e.port}`).to.equal(metricsPort);
          expect(e.path).to.equal('/metrics');
          const open = policies.some((p) =>
            p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === m.metadata.name &&
            (p.spec.ingress ?? []).some((rule: any) =>
              rule.ports.some((x: any) => x.port === e.port) &&
              rule.from?.some((f: any) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring'),
            ),
          );
          expect(open, `${m.metadata.name}: monitoring may reach port ${e.port}`).to.equal(true);
        }
      }
    });
  });

  // The in-test renderer against the real kustomize (kubectl's), where kubectl is installed: the
  // renderer must not drift from what operators apply. Skipped, visibly, without kubectl.
  it('renders every kustomization exactly as `kubectl kustomize` does', function () {
    try {
      execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    this.timeout(60_000);
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'k8s-render-'));
    try {
      cpSync(K8S, path.join(tmp, 'k8s'), { recursive: true });
      for (const overlay of OVERLAYS) {
        const dir = path.join(tmp, 'k8s/overlays', overlay);
        // kustomize needs the env files; the committed examples stand in, as in render().
        for (const f of readdirSync(dir).filter((x) => x.endsWith('.env.example'))) cpSync(path.join(dir, f), path.join(dir, f.replace(/\.example$/, '')));
      }
      const key = (r: Resource) => `${r.kind}/${r.metadata.namespace ?? ''}/${r.metadata.name}`;
      for (const dir of ['base', 'monitoring', ...OVERLAYS.map((o) => `overlays/${o}`)]) {
        const out = execFileSync('kubectl', ['kustomize', path.join(tmp, 'k8s', dir)], { encoding: 'utf8' });
        const theirs = parseAllDocuments(out).map((d) => d.toJS()).filter((d) => d != null) as Resource[];
        // kubectl wraps long base64 values over lines (a YAML block scalar); the bytes are the same.
        for (const r of theirs) if (r.kind === 'Secret') for (const k of Object.keys(r.data ?? {})) r.data[k] = r.data[k].replace(/\s+/g, '');
        const ours = render(path.join(K8S, dir));
        expect(ours.map(key).sort(), dir).to.deep.equal(theirs.map(key).sort());
        for (const r of ours) expect(r, `${dir}: ${key(r)}`).to.deep.equal(theirs.find((t) => key(t) === key(r)));
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('keeps the base environment-neutral: no namespace, no Secret (overlays provide it)', () => {
    const base = render(path.join(K8S, 'base'));
    expect(base.filter((r) => r.metadata.namespace)).to.deep.equal([]);
    expect(base.filter((r) => r.kind === 'Secret')).to.deep.equal([]);
    for (const file of readdirSync(path.join(K8S, 'base')).filter((f) => f.endsWith('.yaml'))) {
      expect(() => readYamlDocuments(path.join(K8S, 'base', file)), file).to.not.throw();
    }
  });
});
