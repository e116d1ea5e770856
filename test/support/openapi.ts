// Contract checks for tests: every HTTP response a test sees is validated against the one HTTP
// contract, gateway/openapi/openapi.yaml, so the document and the code cannot drift apart.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction, ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

const CONTRACT_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../gateway/openapi/openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;

interface Operation {
  id: string;
  method: string;
  template: string; // full path template, server path included, e.g. /v2/campaign/{campaignId}
  responses: Json;
}

interface Route {
  template: string;
  pattern: RegExp;
  /** Also matches an empty parameter: `/v2/campaign/` is getCampaign with the id missing (400). */
  lenient: RegExp;
  literalScore: number;
  operations: Map<string, Operation>;
}

interface Contract {
  document: Json;
  ajv: Ajv2020;
  routes: Route[];
  validators: Map<string, ValidateFunction>;
}

let loaded: Contract | undefined;

/** The parsed OpenAPI document (parsed once per process). */
export function contractDocument(): Json {
  return load().document;
}

/**
 * Throws unless `body` is exactly what the contract documents for `method path` answering
 * `status`. `path` is the request path as sent (e.g. '/v2/campaign/abc'), query string allowed.
 */
export function assertResponseMatchesContract(method: string, requestPath: string, status: number, body: unknown): void {
  const contract = load();
  const pathname = requestPath.split('?')[0];
  const route = findRoute(contract.routes, pathname, method.toLowerCase());
  if (!route) throw new Error(`Contract: no documented path matches ${method.toUpperCase()} ${pathname}`);
  const operation = route.operations.get(method.toLowerCase());
  if (!operation) throw new Error(`Contract: ${method.toUpperCase()} is not documented on ${route.template}`);
  const name = `${operation.id} (${method.toUpperCase()} ${route.template})`;
  const response = deref(contract.document, operation.responses[String(status)] ?? operation.responses.default) as Json | undefined;
  if (!response) {
    throw new Error(`Contract: ${name} does not document status ${status} (documented: ${Object.keys(operation.responses).join(', ')}); body: ${preview(body)}`);
  }
  const content = response.content as Json | undefined;
  if (!content) {
    if (body !== undefined && body !== null && body !== '') throw new Error(`Contract: ${name} ${status} documents no body but got ${preview(body)}`);
    return;
  }
  const mediaType = (content['application/json'] ?? Object.values(content)[0]) as Json;
  const key = `${operation.id} ${status}`;
  let validate = contract.validators.get(key);
  if (!validate) {
    validate = contract.ajv.compile(resolveRefs(contract.document, mediaType.schema ?? {}) as Json);
    contract.validators.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(`Contract: ${name} ${status} body does not match the schema:\n${formatErrors(validate.errors ?? [])}\nbody: ${preview(body)}`);
  }
}

function load(): Contract {
  if (loaded) return loaded;
  const document = parse(readFileSync(CONTRACT_FILE, 'utf8')) as Json;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => void;
  addFormats(ajv);
  loaded = { document, ajv, routes: buildRoutes(document), validators: new Map() };
  return loaded;
}

function serverPath(servers: unknown): string {
  const first = Array.isArray(servers) ? (servers[0] as Json | undefined) : undefined;
  if (!first) return '';
  const variables = (first.variables ?? {}) as Record<string, { default: string }>;
  const url = String(first.url).replace(/\{([^}]+)\}/g, (_, v: string) => variables[v]?.default ?? '');
  const pathname = /^[a-z]+:\/\//i.test(url) ? new URL(url).pathname : url;
  return pathname.replace(/\/+$/, '');
}

function buildRoutes(document: Json): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const full = serverPath(item.servers ?? document.servers) + template;
    const operations = new Map<string, Operation>();
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (op) operations.set(method, { id: String(op.operationId ?? `${method} ${template}`), method, template: full, responses: (op.responses ?? {}) as Json });
    }
    const source = (param: string) =>
      full
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? param : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('');
    routes.push({
      template: full,
      pattern: new RegExp(`^${source('([^/]+)')}$`),
      lenient: new RegExp(`^${source('([^/]*)')}$`),
      literalScore: full.replace(/\{[^}]+\}/g, '').length,
      operations,
    });
  }
  // A concrete path wins over a template that also matches it (/campaign/create vs /campaign/{campaignId}).
  return routes.sort((a, b) => b.literalScore - a.literalScore);
}

/**
 * The most specific documented path that matches and has the method (GET /v2/campaign/create is
 * getCampaign with the id "create"); failing that, the most specific match, to name in the error.
 */
function findRoute(routes: Route[], pathname: string, method: string): Route | undefined {
  const strict = routes.filter((r) => r.pattern.test(pathname));
  const matches = strict.length > 0 ? strict : routes.filter((r) => r.template.includes('{') && (r.lenient.test(pathname) || r.lenient.test(`${pathname}/`)));
  return matches.find((r) => r.operations.has(method)) ?? matches[0];
}

function deref(document: Json, node: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < 20 && isRef(current); hops++) current = pointer(document, current.$ref);
  return current;
}

function isRef(node: unknown): node is { $ref: string } {
  return typeof node === 'object' && node !== null && typeof (node as Json).$ref === 'string';
}

function pointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Contract: only local $refs are supported, got ${ref}`);
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Json)?.[segment];
    if (node === undefined) throw new Error(`Contract: unresolved $ref ${ref}`);
  }
  return node;
}

/** Inlines local $refs (the contract has no recursive schemas); OpenAPI-only keywords are dropped. */
function resolveRefs(document: Json, node: unknown, depth = 0): unknown {
  if (depth > 50) throw new Error('Contract: $ref nesting too deep');
  if (Array.isArray(node)) return node.map((n) => resolveRefs(document, n, depth + 1));
  if (typeof node !== 'object' || node === null) return node;
  if (isRef(node)) return resolveRefs(document, pointer(document, node.$ref), depth + 1);
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'xml' || k === 'externalDocs' || k === 'discriminator') continue;
    out[k] = resolveRefs(document, v, depth + 1);
  }
  return out;
}

function formatErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `  - ${e.instancePath || '(root)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('\n');
}

function preview(body: unknown): string {
  const text = JSON.stringify(body);
  return text === undefined ? String(body) : text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
