// Routes that need no API key: the contract itself and the health probe.
//
// The contract's one server is `{origin}`; the served document gives that variable the origin
// this gateway is reached at as its default, so a client generated or configured from it calls
// this deployment: PUBLIC_URL when set (the origin the public uses, e.g. behind a TLS proxy),
// else the origin the request was sent to (its Host, over http: the gateway itself speaks plain
// HTTP). A Host that is not a host[:port] leaves the document's own default.
import type { NextFunction, Request, Response } from 'express';
import { parse, parseDocument, Scalar } from 'yaml';
import { sendMethodNotAllowed } from '../http/json.js';

const ORIGIN_DEFAULT = ['servers', 0, 'variables', 'origin', 'default'] as const;
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The document's text around the origin's default, to serve it with another value in between. */
interface Template {
  before: string;
  after: string;
  fallback: string;
}

function templates(yaml: string): { json: Template; yaml: Template } {
  const doc = parseDocument(yaml);
  const node = doc.getIn(ORIGIN_DEFAULT, true);
  if (!(node instanceof Scalar) || !node.range || typeof node.value !== 'string') throw new Error('the OpenAPI document has no servers[0].variables.origin.default');
  const fallback = node.value;
  const marker = `\u0000origin\u0000`;
  const object = parse(yaml);
  object.servers[0].variables.origin.default = marker;
  const [jsonBefore, jsonAfter] = JSON.stringify(object).split(JSON.stringify(marker));
  return {
    json: { before: jsonBefore, after: jsonAfter, fallback },
    // A JSON string is a YAML double-quoted scalar: any origin is written safely.
    yaml: { before: yaml.slice(0, node.range[0]), after: yaml.slice(node.range[1]), fallback },
  };
}

/** `contractYaml`: gateway/openapi/openapi.yaml; `publicUrl`: PUBLIC_URL ('' = each request's own origin). */
export function staticRoutes(contractYaml: string, publicUrl: string) {
  const served = templates(contractYaml);
  const originOf = (req: Request): string | undefined => {
    if (publicUrl !== '') return publicUrl;
    const host = req.headers.host;
    return typeof host === 'string' && HOST.test(host) ? `http://${host}` : undefined;
  };
  const fill = (t: Template, req: Request) => t.before + JSON.stringify(originOf(req) ?? t.fallback) + t.after;
  const table: Record<string, (req: Request, res: Response) => void> = {
    '/healthz': (_req, res) => res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok' }),
    '/v2/openapi.json': (req, res) => res.status(200).type('application/json').send(fill(served.json, req)),
    '/v2/openapi.yaml': (req, res) => res.status(200).type('application/yaml').send(fill(served.yaml, req)),
  };
  return function serveStatic(req: Request, res: Response, next: NextFunction): void {
    const handler = Object.hasOwn(table, req.path) ? table[req.path] : undefined;
    if (!handler) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, ['GET']);
    handler(req, res);
  };
}
