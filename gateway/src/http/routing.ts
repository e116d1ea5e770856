// What the gateway's Express routers (the /v2 API, routes/api.ts; the console API, console/api.ts)
// add to Express's routing: paths written `/v2/campaign/{campaignId}`, matched case-sensitively
// on the raw path with an optional trailing slash, their parameters percent-decoded here (a
// malformed escape is an id that does not exist, never an error); 405 with Allow for a path that
// exists with other methods; and HttpError answered as JSON.
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { HttpError } from '../texts.js';
import { sendJson, sendMethodNotAllowed } from './json.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed escape is just an id that does not exist (404), never a 500
  }
}

export interface PathPattern {
  /** What Express matches: no capturing groups, so Express decodes (and refuses) nothing. */
  match: RegExp;
  /** The path's parameters by name, percent-decoded. */
  params(rawPath: string): Record<string, string>;
}

/** `/v2/campaign/{campaignId}`: `{name}` is one path segment. */
export function pathPattern(path: string): PathPattern {
  const names: string[] = [];
  const segments = path.split('/').map((segment) => {
    const m = /^\{(\w+)\}$/.exec(segment);
    if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(m[1]);
    return '([^/]+)';
  });
  const capturing = new RegExp(`^${segments.join('/')}/?$`);
  return {
    match: new RegExp(`^${segments.map((s) => (s === '([^/]+)' ? '[^/]+' : s)).join('/')}/?$`),
    params(rawPath) {
      const values = (capturing.exec(rawPath) ?? []).slice(1).map(decodeParam);
      return Object.fromEntries(names.map((name, i) => [name, values[i]]));
    },
  };
}

/**
 * An Express router that takes routes as `(method, path, handlers)` and ends with the 405 of a
 * known path and the JSON answer of an HttpError. Routes are tried in the order they are added.
 */
export function createRouter() {
  const router = express.Router();
  const known: { method: Method; pattern: PathPattern }[] = [];
  return {
    /** `handlers` may end with an error handler of the route's own (it sees the errors of the route's steps first). */
    add(method: Method, path: string, handlers: (pattern: PathPattern) => (RequestHandler | ErrorRequestHandler)[]): void {
      const pattern = pathPattern(path);
      known.push({ method, pattern });
      router[method === 'DELETE' ? 'delete' : (method.toLowerCase() as 'get' | 'post' | 'patch')](pattern.match, ...handlers(pattern));
    },
    /**
     * The router, closed by the 405 of a path known with other methods, then `notFound` for
     * any other path (absent: the request goes on past the router), then the HttpError answer.
     */
    done(notFound?: RequestHandler): Router {
      router.use(function methodNotAllowed(req: Request, res: Response, next: NextFunction) {
        const methods = known.filter((k) => k.pattern.match.test(req.path)).map((k) => k.method);
        if (methods.length === 0) return next();
        sendMethodNotAllowed(res, methods);
      });
      if (notFound) router.use(notFound);
      router.use(function answerHttpError(err: unknown, _req: Request, res: Response, next: NextFunction) {
        if (!(err instanceof HttpError)) return next(err);
        sendJson(res, err.status, { message: err.message }, err.headers);
      });
      return router;
    },
  };
}
