// A small, strict kustomize renderer for the offline deploy tests (no kustomize binary on these
// machines or in CI). It implements exactly the fields our kustomizations use — resources,
// namespace, labels, images, replicas, patches (strategic merge by path) and secretGenerator /
// configMapGenerator (envs, literals) — and throws on any other field, so a kustomization can
// never silently use something this renderer would get wrong.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type Resource = Record<string, any> & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'replicas', 'patches', 'secretGenerator', 'configMapGenerator']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume', 'StorageClass', 'CustomResourceDefinition']);

export function readYamlDocuments(file: string): any[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0].message}`);
    return d.toJS();
  }).filter((d) => d != null);
}

/** Renders the kustomization in `dir`. `secretFile(dir, name)` may substitute a missing env file (tests use the committed example). */
export function renderKustomization(dir: string, opts: { envFile?: (file: string) => string } = {}): Resource[] {
  const [k] = readYamlDocuments(path.join(dir, 'kustomization.yaml'));
  if (k.kind !== 'Kustomization' || k.apiVersion !== 'kustomize.config.k8s.io/v1beta1') throw new Error(`${dir}: not a v1beta1 Kustomization`);
  for (const key of Object.keys(k)) if (!SUPPORTED.has(key)) throw new Error(`${dir}/kustomization.yaml: field "${key}" is not supported by the test renderer`);

  let out: Resource[] = [];
  for (const entry of k.resources ?? []) {
    const target = path.resolve(dir, entry);
    if (statSync(target).isDirectory()) out.push(...renderKustomization(target, opts));
    else out.push(...(readYamlDocuments(target) as Resource[]));
  }
  for (const gen of k.configMapGenerator ?? []) out.push(generate('ConfigMap', dir, gen, opts));
  for (const gen of k.secretGenerator ?? []) out.push(generate('Secret', dir, gen, opts));

  for (const p of k.patches ?? []) {
    if (!p.path || p.target || p.patch) throw new Error(`${dir}: only patches with a path (strategic merge) are supported`);
    for (const patch of readYamlDocuments(path.resolve(dir, p.path)) as Resource[]) {
      const i = out.findIndex((r) => r.kind === patch.kind && r.metadata.name === patch.metadata.name);
      if (i < 0) throw new Error(`${dir}/${p.path}: patch target ${patch.kind}/${patch.metadata.name} not found`);
      out[i] = strategicMerge(out[i], patch);
    }
  }
  for (const r of k.replicas ?? []) {
    const targets = out.filter((x) => ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(x.kind) && x.metadata.name === r.name);
    if (targets.length === 0) throw new Error(`${dir}: replicas for unknown workload ${r.name}`);
    for (const t of targets) t.spec.replicas = r.count;
  }
  for (const img of k.images ?? []) {
    let used = false;
    for (const c of out.flatMap(containersOf)) {
      const [name, tag] = splitImage(c.image);
      if (name !== img.name) continue;
      used = true;
      c.image = `${img.newName ?? name}:${img.newTag ?? tag}`;
    }
    if (!used) throw new Error(`${dir}: image ${img.name} is used by no container`);
  }
  for (const l of k.labels ?? []) {
    if (l.includeSelectors) throw new Error(`${dir}: labels with includeSelectors are not supported`);
    for (const r of out) r.metadata.labels = { ...r.metadata.labels, ...l.pairs };
  }
  if (k.namespace) out = out.map((r) => (CLUSTER_SCOPED.has(r.kind) ? r : { ...r, metadata: { ...r.metadata, namespace: k.namespace } }));
  return out;
}

function generate(kind: 'ConfigMap' | 'Secret', dir: string, gen: any, opts: { envFile?: (file: string) => string }): Resource {
  for (const key of Object.keys(gen)) if (!['name', 'envs', 'literals', 'options'].includes(key)) throw new Error(`${dir}: generator field "${key}" is not supported`);
  if (gen.options?.disableNameSuffixHash !== true) throw new Error(`${dir}: generator ${gen.name} must set disableNameSuffixHash (name hashing is not rendered here)`);
  const data: Record<string, string> = {};
  const pairs = [...(gen.literals ?? [])];
  for (const env of gen.envs ?? []) {
    let file = path.resolve(dir, env);
    if (!existsSync(file) && opts.envFile) file = opts.envFile(file);
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      pairs.push(line);
    }
  }
  for (const pair of pairs) {
    const i = pair.indexOf('=');
    if (i <= 0) throw new Error(`${dir}: generator ${gen.name}: "${pair}" is not KEY=value`);
    data[pair.slice(0, i)] = pair.slice(i + 1);
  }
  const resource: Resource = { apiVersion: 'v1', kind, metadata: { name: gen.name } };
  if (kind === 'Secret') {
    resource.type = 'Opaque';
    resource.data = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  } else resource.data = data;
  return resource;
}

/** Maps merge; lists of objects with `name` merge by name; other lists are replaced. */
export function strategicMerge(base: any, patch: any): any {
  if (Array.isArray(base) && Array.isArray(patch)) {
    const named = (xs: any[]) => xs.every((x) => x && typeof x === 'object' && typeof x.name === 'string');
    if (!named(base) || !named(patch)) return structuredClone(patch);
    const merged = base.map((b: any) => {
      const p = patch.find((x: any) => x.name === b.name);
      return p ? strategicMerge(b, p) : structuredClone(b);
    });
    for (const p of patch) if (!base.some((b: any) => b.name === p.name)) merged.push(structuredClone(p));
    return merged;
  }
  if (base && patch && typeof base === 'object' && typeof patch === 'object' && !Array.isArray(base) && !Array.isArray(patch)) {
    const out: any = structuredClone(base);
    for (const [k, v] of Object.entries(patch)) out[k] = k in base ? strategicMerge(base[k], v) : structuredClone(v);
    return out;
  }
  return structuredClone(patch);
}

export function podSpecOf(r: Resource): any | undefined {
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'].includes(r.kind)) return r.spec?.template?.spec;
  if (r.kind === 'CronJob') return r.spec?.jobTemplate?.spec?.template?.spec;
  return undefined;
}

export function containersOf(r: Resource): any[] {
  const spec = podSpecOf(r);
  return spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])] : [];
}

function splitImage(image: string): [string, string] {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/') ? [image.slice(0, at), image.slice(at + 1)] : [image, 'latest'];
}
