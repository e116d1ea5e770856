// Site plugin HTTP routes: the snippet and the service worker scripts, the site's public
// configuration (VAPID public key), page views and subscription changes. Reached through the
// gateway's /public proxy.
import { rateLimited } from '../routes/rate-limited.js';
import express, { type Request, type Response, type Router } from 'express';
import type { Pool } from '../../../shared/src/db.js';
import { findSiteByPublicId } from '../db/index.js';
import { SiteNotFoundError } from '../domain/errors.js';
import type { RateLimiter } from '../routes/rate-limiter.js';
import { BODY_LIMIT_BYTES, jsonObject } from '../routes/subscriptions.js';
import { loadAsset, type PluginAsset } from './assets.js';
import { createPageViews } from './page-views.js';
import { createSubscriptionChanges } from './subscription-changes.js';

export const SNIPPET_PATH = '/public/v1/webpush.js';
export const SERVICE_WORKER_PATH = '/public/v1/webpush-sw.js';
export const SNIPPET_CACHE_CONTROL = 'public, max-age=3600';
// Browsers check a service worker's scripts for updates anyway; no-cache makes each check a
// cheap conditional request, so a fixed worker reaches every subscriber at their next visit.
export const SERVICE_WORKER_CACHE_CONTROL = 'no-cache';
// The VAPID key of a site never changes; a short cache only spares repeated look-ups.
export const CONFIG_CACHE_CONTROL = 'public, max-age=300';

const PUBLIC_ID = /^[A-Za-z0-9_-]{1,100}$/;

export interface PluginRouteDeps {
  pool: Pool;
  /** Page views are limited like subscriptions, per client address, in a bucket of their own. */
  limiter: RateLimiter;
}

function serveScript(asset: PluginAsset, headers: Record<string, string>) {
  return (req: Request, res: Response) => {
    res.set({
      'Content-Type': 'application/javascript; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ETag: asset.etag,
      ...headers,
    });
    if (req.get('if-none-match')?.split(',').some((tag) => tag.trim() === asset.etag)) return void res.status(304).end();
    res.status(200).send(asset.body);
  };
}

export function pluginRoutes(deps: PluginRouteDeps): Router {
  const router = express.Router();
  const snippet = loadAsset('webpush.js');
  const worker = loadAsset('webpush-sw.js');
  const pageViews = createPageViews(deps.pool);
  const subscriptionChanges = createSubscriptionChanges(deps.pool);

  router.get(SNIPPET_PATH, serveScript(snippet, { 'Cache-Control': SNIPPET_CACHE_CONTROL }));
  router.get(
    SERVICE_WORKER_PATH,
    serveScript(worker, { 'Cache-Control': SERVICE_WORKER_CACHE_CONTROL, 'Service-Worker-Allowed': '/' }),
  );

  router.get('/public/v1/sites/:publicId/config', async (req, res) => {
    const publicId = String(req.params.publicId);
    const site = PUBLIC_ID.test(publicId) ? await findSiteByPublicId(deps.pool, publicId) : null;
    if (!site) throw new SiteNotFoundError();
    res.set('Cache-Control', CONFIG_CACHE_CONTROL);
    res.status(200).json({ publicId: site.publicId, vapidPublicKey: site.vapidPublicKey });
  });

  const rateLimit = rateLimited(deps.limiter);
  // Any content type, as for subscriptions: the snippet posts text/plain to avoid a preflight.
  const body = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES });

  router.post('/public/v1/sites/:publicId/pageviews', rateLimit, body, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.status(200).json(await pageViews.record(String(req.params.publicId), jsonObject(req)));
  });

  // The service worker's report that the browser replaced a subscription (pushsubscriptionchange).
  router.post('/public/v1/sites/:publicId/subscription-changes', rateLimit, body, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.status(200).json(await subscriptionChanges.record(String(req.params.publicId), jsonObject(req)));
  });

  return router;
}
