// The gateway's public Express app: the one middleware chain every request goes down, in this
// order (it matters): the request id (every answer carries it), request metrics, the /public
// proxy (before anything that could read a body), the keyless routes (the contract, the health
// probe), the console API (session cookies; console/api.ts), the console's pages, the /v2 API
// (API keys; routes/api.ts), then the JSON 404 and the last-chance error answer. Readiness and
// metrics are served by the ops listener (app.ts), never on this port.
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@webpush/shared/log.js';
import type { ServiceMetrics } from '@webpush/shared/observability/metrics.js';
import type { Authenticator } from './auth/authenticator.js';
import { consolePageRoutes, consoleApiRouter, consoleRoutes, type ConsolePages } from './console/index.js';
import type { Backends, ConsoleBackend, ConsoleDataBackend } from './grpc/clients.js';
import type { ClientResolver } from './http/client-address.js';
import { sendJson } from './http/json.js';
import { requestId, requestIdOf } from './http/request-id.js';
import { v2Router, type ApiLimits } from './routes/api.js';
import type { AuditTrail } from './routes/audit-trail.js';
import { staticRoutes } from './routes/static.js';
import { MESSAGES } from './texts.js';

export interface ExpressAppDeps {
  backends: Pick<Backends, 'campaigns' | 'templates' | 'automations' | 'feeds' | 'audience' | 'webhooks' | 'auditLog'>;
  authenticator: Authenticator;
  /** The /public proxy (routes/public-proxy.ts). */
  publicProxy: express.RequestHandler;
  /** The OpenAPI document as YAML (gateway/openapi/openapi.yaml), served at /v2/openapi.{yaml,json}. */
  contractYaml: string;
  /** PUBLIC_URL: the origin the served contract names; '' = each request's own origin. */
  publicUrl: string;
  /** The console's built pages, served at /console/ (null: not built, /console/ says so; absent: not served). */
  consolePages?: ConsolePages | null;
  bodyLimitBytes: number;
  logger: Logger;
  /** /v2 rate limits per key and per guessing client; absent = none. */
  limits?: ApiLimits;
  /** Request metrics (counted here, scraped on the ops listener); absent = not counted. */
  metrics?: ServiceMetrics;
  /** The console API under /console/api/ (docs/console.md); absent = not served. */
  console?: ConsoleDeps;
  /** The sites' audit logs, recorded by both routers (routes/audit-trail.ts); absent = nothing recorded. */
  audit?: AuditTrail;
}

export interface ConsoleDeps {
  backend: ConsoleBackend;
  /** The delivery service's console data (series, daily counts, browsers, topic maintenance, the site's VAPID key). */
  data: ConsoleDataBackend;
  clientOf: ClientResolver;
  secureCookie: boolean;
  /** PUBLIC_URL; '' = each request's own origin. */
  publicUrl: string;
}

export function createExpressApp(deps: ExpressAppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(requestId);
  if (deps.metrics) app.use(deps.metrics.http);
  app.use(deps.publicProxy);
  app.use(staticRoutes(deps.contractYaml, deps.publicUrl));
  if (deps.console) {
    const c = deps.console;
    app.use(
      consoleApiRouter({
        routes: consoleRoutes({ console: c.backend, consoleData: c.data, campaigns: deps.backends.campaigns, audience: deps.backends.audience, auditLog: deps.backends.auditLog, webhooks: deps.backends.webhooks, templates: deps.backends.templates, automations: deps.backends.automations }),
        backend: c.backend,
        bodyLimitBytes: deps.bodyLimitBytes,
        logger: deps.logger,
        clientOf: c.clientOf,
        secureCookie: c.secureCookie,
        publicUrl: c.publicUrl,
        audit: deps.audit,
      }),
    );
  }
  if (deps.consolePages !== undefined) app.use(consolePageRoutes(deps.consolePages));
  app.use(v2Router({ backends: deps.backends, authenticator: deps.authenticator, bodyLimitBytes: deps.bodyLimitBytes, logger: deps.logger, limits: deps.limits, audit: deps.audit }));
  app.use((_req: Request, res: Response) => sendJson(res, 404, { message: MESSAGES.notFound }));

  // Last chance: the detail goes to the log with the request id, never to the client.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = typeof (err as { status?: unknown })?.status === 'number' ? (err as { status: number }).status : 500;
    if (status >= 500) deps.logger.error('unhandled error', { requestId: requestIdOf(res), method: req.method, path: req.path, err: err instanceof Error ? err : undefined });
    if (res.headersSent) return void res.destroy();
    if (status === 413) return sendJson(res, 413, { message: MESSAGES.bodyTooLarge });
    if (status >= 400 && status < 500) return sendJson(res, 400, { message: MESSAGES.badRequest });
    sendJson(res, 500, { message: MESSAGES.internal });
  });
  return app;
}
