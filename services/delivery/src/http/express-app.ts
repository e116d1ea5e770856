// The delivery service's HTTP app for the site plugin, reached only through the gateway's proxy:
// everything but the liveness probe needs the gateway's internal token. Readiness and metrics
// are on the separate ops listener (app.ts), never on this port.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { SHARED_OWN } from '@webpush/shared/api-texts.js';
import { BUSY_RETRY_AFTER_SECONDS, isConnectionWaitTimeout } from '@webpush/shared/db.js';
import type { InternalAuth } from '@webpush/shared/internal-auth.js';
import type { Logger } from '@webpush/shared/log.js';
import { healthzHandler } from '@webpush/shared/observability/health.js';
import type { ServiceMetrics } from '@webpush/shared/observability/metrics.js';
import { SiteNotFoundError, ValidationError } from '../errors.js';
import { cors } from './cors.js';
import { gatewayOnly } from './gateway-only.js';
import { HttpError } from './http-error.js';

export interface ExpressAppDeps {
  /** The features' routes (plugin, tracking), mounted in this order. */
  routers: readonly Router[];
  /** Recognises the gateway's token: the only caller of this app. */
  internalAuth: InternalAuth;
  log: Logger;
  /** Request metrics (counted here, scraped on the ops listener); absent = not counted. */
  metrics?: ServiceMetrics;
}

export function createExpressApp(deps: ExpressAppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  if (deps.metrics) app.use(deps.metrics.http); // counts every request below, refused ones too
  app.get('/healthz', healthzHandler);
  app.use(gatewayOnly(deps.internalAuth));
  app.use('/public', cors);
  for (const router of deps.routers) app.use(router);
  app.use((_req, res) => {
    res.status(404).json({ message: 'Not found' });
  });

  // The one place errors become responses; body-parser errors carry `type` and a 4xx status; no
  // database connection within its bound is busy (503 with Retry-After), never a 500.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const parserError = err as { type?: string; status?: number };
    if (err instanceof ValidationError) return void res.status(400).json({ message: err.message });
    if (err instanceof SiteNotFoundError) return void res.status(404).json({ message: err.message });
    if (err instanceof HttpError) return void res.status(err.status).json({ message: err.message });
    if (isConnectionWaitTimeout(err) && !res.headersSent) {
      res.set('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      return void res.status(503).json({ message: SHARED_OWN.serviceBusy });
    }
    if (parserError.type === 'entity.too.large') return void res.status(413).json({ message: 'Request body too large' });
    if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      return void res.status(400).json({ message: 'Invalid JSON body' });
    }
    deps.log.error('unhandled error', { err, method: req.method, path: req.path });
    if (res.headersSent) return void res.end();
    res.status(500).json({ message: 'Internal server error' });
  });
  return app;
}
