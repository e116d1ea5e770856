// A small, strict kustomize renderer for the offline deploy tests (no kustomize binary on these
// machines or in CI). It implements exactly the fields our kustomizations use — resources,
// namespace, labels, images, replicas, patches (strategic merge by path), secretGenerator /
// configMapGenerator (envs, literals) and replacements (one source field, optionally split by a
// delimiter, into target fields) — and throws on any other field, so a kustomization can never
// silently use something this renderer would get wrong. Where kubectl is installed,
// kubernetes.test.ts also compares this renderer's output with `kubectl kustomize`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type Resource = Record<string, any> & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> } };

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'replicas', 'patches', 'secretGenerator', 'configMapGenerator', 'replacements']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume', 'StorageClass', 'CustomResourceDefinition']);

export function readYamlDocuments(file: string): any[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0].message}`);
    return d.toJS();
  }).filter((d) => d != null);
}

export interface RenderOptions {
  /** Substitutes a missing env file (tests use the committed example). */
  envFile?: (file: string) => string;
  /** Changes the top-level kustomization before rendering (e.g. another image tag); nested ones are read as they are. */
  edit?: (kustomization: any) => void;
}

/** Renders the kustomization in `dir`. */
export function renderKustomization(dir: string, opts: RenderOptions = {}): Resource[] {
  const [k] = readYamlDocuments(path.join(dir, 'kustomization.yaml'));
  opts.edit?.(k);
  const nested = { envFile: opts.envFile };
  if (k.kind !== 'Kustomization' || k.apiVersion !== 'kustomize.config.k8s.io/v1beta1') throw new Error(`${dir}: not a v1beta1 Kustomization`);
  for (const key of Object.keys(k)) if (!SUPPORTED.has(key)) throw new Error(`${dir}/kustomization.yaml: field "${key}" is not supported by the test renderer`);

  let out: Resource[] = [];
  for (const entry of k.resources ?? []) {
    const target = path.resolve(dir, entry);
    if (statSync(target).isDirectory()) out.push(...renderKustomization(target, nested));
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
  // kustomize applies replacements after all the built-in transformers (images included).
  for (const rep of k.replacements ?? []) replace(dir, out, rep);
  return out;
}

/** One `replacements` entry: source {kind, name, fieldPath, options {delimiter, index}} into targets {select {kind, name}, fieldPaths, options {delimiter, index}}. */
function replace(dir: string, rs: Resource[], rep: any): void {
  const fail = (msg: string) => {
    throw new Error(`${dir}: replacement: ${msg}`);
  };
  for (const key of Object.keys(rep)) if (!['source', 'targets'].includes(key)) fail(`field "${key}" is not supported`);
  const { source } = rep;
  for (const key of Object.keys(source)) if (!['kind', 'name', 'fieldPath', 'options'].includes(key)) fail(`source field "${key}" is not supported`);
  const from = rs.filter((r) => r.kind === source.kind && r.metadata.name === source.name);
  if (from.length !== 1) fail(`source ${source.kind}/${source.name} matches ${from.length} objects`);
  let value = getField(from[0], source.fieldPath);
  if (typeof value !== 'string') fail(`source ${source.fieldPath} is not a string`);
  if (source.options?.delimiter !== undefined) {
    const parts = value.split(source.options.delimiter);
    const i = source.options.index ?? 0;
    // kustomize refuses an out-of-range source index too.
    if (i < 0 || i >= parts.length) fail(`source index ${i} out of range in "${value}"`);
    value = parts[i];
  }
  for (const target of rep.targets ?? []) {
    for (const key of Object.keys(target)) if (!['select', 'fieldPaths', 'options'].includes(key)) fail(`target field "${key}" is not supported`);
    for (const key of Object.keys(target.select)) if (!['kind', 'name'].includes(key)) fail(`target select field "${key}" is not supported`);
    const selected = rs.filter((r) => r.kind === target.select.kind && (target.select.name === undefined || r.metadata.name === target.select.name));
    if (selected.length === 0) fail(`target ${target.select.kind}/${target.select.name} matches nothing`);
    for (const r of selected) {
      for (const fieldPath of target.fieldPaths) {
        let v: string = value;
        if (target.options?.delimiter !== undefined) {
          // As kustomize: the value replaces one part of the target's split value, or is
          // appended (index past the end) or prepended (negative index).
          const parts = String(getField(r, fieldPath)).split(target.options.delimiter);
          const i = target.options.index ?? 0;
          if (i < 0) parts.unshift(v);
          else if (i >= parts.length) parts.push(v);
          else parts[i] = v;
          v = parts.join(target.options.delimiter);
        }
        setField(r, fieldPath, v);
      }
    }
  }
}

/** Field path segments: `a.b.[name=x].c` (list items selected by a field's value). */
function segments(fieldPath: string): string[] {
  return fieldPath.split('.');
}

function step(node: any, seg: string, fieldPath: string): any {
  const m = /^\[(\w+)=([^\]]+)\]$/.exec(seg);
  if (m) {
    if (!Array.isArray(node)) throw new Error(`${fieldPath}: ${seg} applied to a non-list`);
    const found = node.filter((x) => x?.[m[1]] === m[2]);
    if (found.length !== 1) throw new Error(`${fieldPath}: ${seg} matches ${found.length} items`);
    return found[0];
  }
  if (node == null || typeof node !== 'object' || !(seg in node)) throw new Error(`${fieldPath}: no field ${seg}`);
  return node[seg];
}

function getField(r: Resource, fieldPath: string): any {
  return segments(fieldPath).reduce((node, seg) => step(node, seg, fieldPath), r as any);
}

function setField(r: Resource, fieldPath: string, value: string): void {
  const segs = segments(fieldPath);
  const parent = segs.slice(0, -1).reduce((node, seg) => step(node, seg, fieldPath), r as any);
  const last = segs[segs.length - 1];
  if (parent == null || typeof parent !== 'object' || !(last in parent)) throw new Error(`${fieldPath}: no field ${last}`);
  parent[last] = value;
}

function generate(kind: 'ConfigMap' | 'Secret', dir: string, gen: any, opts: RenderOptions): Resource {
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
