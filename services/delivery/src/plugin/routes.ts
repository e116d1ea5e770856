// The site plugin's HTTP endpoints: the snippet and the service worker scripts, the site's
// public configuration (VAPID public key), and what the plugin reports about its subscribers
// (subscribe, unsubscribe, page views, subscription changes; rules in audience/), who its
// subscribers are (identify, logout; rules in people/) and what its opt-in prompts did (rules in
// optin/). Reached through the gateway's /public proxy.
import express, { type Request, type Response, type Router } from 'express';
import type { Pool } from '@webpush/shared/db.js';
import type { Subscriptions } from '../audience/index.js';
import type { Identity, VisitorTags } from '../people/index.js';
import { SiteNotFoundError } from '../errors.js';
import { clientCountry } from '../http/client-address.js';
import { jsonObject, rawBody } from '../http/json-body.js';
import { rateLimited } from '../http/rate-limited.js';
import type { RateLimiter } from '@webpush/shared/rate-limit.js';
import { findSiteByPublicId } from '../sites/index.js';
import type { OptInFunnel } from '../optin/index.js';
import { loadAsset, type PluginAsset } from './assets.js';
import { publicPrompts } from './optin-prompts.js';
import { readOptInPrompts } from './optin-prompts-store.js';

export const SNIPPET_PATH = '/public/v1/webpush.js';
// Loaded by the snippet only for a site whose configuration shows a prompt or the bell, so the
// snippet every page loads stays small (docs/site-plugin.md, "Size budget").
export const PROMPT_PATH = '/public/v1/webpush-prompt.js';
export const SERVICE_WORKER_PATH = '/public/v1/webpush-sw.js';
export const SNIPPET_CACHE_CONTROL = 'public, max-age=3600';
// Browsers check a service worker's scripts for updates anyway; no-cache makes each check a
// cheap conditional request, so a fixed worker reaches every subscriber at their next visit.
export const SERVICE_WORKER_CACHE_CONTROL = 'no-cache';
// The VAPID key of a site never changes; a short cache only spares repeated look-ups, and a
// change of the opt-in prompts reaches visitors within it.
export const CONFIG_CACHE_CONTROL = 'public, max-age=300';
// An opt-in event is `{"event", "promptId"}`: well under 200 bytes; a larger body is no report.
export const OPTIN_EVENT_BODY_LIMIT_BYTES = 1024;

export interface PluginRouteDeps {
  pool: Pool;
  subscriptions: Subscriptions;
  identity: Identity;
  visitorTags: VisitorTags;
  optInFunnel: OptInFunnel;
  /** Subscription calls, per client address. */
  limiter: RateLimiter;
  /** Page views, subscription changes and opt-in events: limited like subscriptions, in buckets of their own. */
  reportLimiter: RateLimiter;
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
  const prompt = loadAsset('webpush-prompt.js');
  const worker = loadAsset('webpush-sw.js');

  router.get(SNIPPET_PATH, serveScript(snippet, { 'Cache-Control': SNIPPET_CACHE_CONTROL }));
  router.get(PROMPT_PATH, serveScript(prompt, { 'Cache-Control': SNIPPET_CACHE_CONTROL }));
  router.get(
    SERVICE_WORKER_PATH,
    serveScript(worker, { 'Cache-Control': SERVICE_WORKER_CACHE_CONTROL, 'Service-Worker-Allowed': '/' }),
  );

  router.get('/public/v1/sites/:publicId/config', async (req, res) => {
    const site = await findSiteByPublicId(deps.pool, String(req.params.publicId));
    if (!site) throw new SiteNotFoundError();
    const prompts = publicPrompts(await readOptInPrompts(deps.pool, site.siteId));
    res.set('Cache-Control', CONFIG_CACHE_CONTROL);
    res.status(200).json({ publicId: site.publicId, vapidPublicKey: site.vapidPublicKey, ...(prompts ? { prompts } : {}) });
  });

  const { subscriptions } = deps;
  const subscribeLimit = rateLimited(deps.limiter);
  const reportLimit = rateLimited(deps.reportLimiter);
  const body = rawBody();
  const subscriptionsPath = '/public/v1/sites/:publicId/subscriptions';

  router.post(subscriptionsPath, subscribeLimit, body, async (req, res) => {
    // The country is the gateway's (x-client-country), never the body's or a client header's.
    const result = await subscriptions.subscribe(String(req.params.publicId), jsonObject(req), clientCountry(req));
    res.status(result.created ? 201 : 200).json({ id: result.id, created: result.created });
  });

  router.delete(subscriptionsPath, subscribeLimit, body, async (req, res) => {
    res.status(200).json(await subscriptions.unsubscribe(String(req.params.publicId), jsonObject(req)));
  });

  router.post('/public/v1/sites/:publicId/pageviews', reportLimit, body, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.status(200).json(await subscriptions.recordPageView(String(req.params.publicId), jsonObject(req)));
  });

  // The service worker's report that the browser replaced a subscription (pushsubscriptionchange).
  router.post('/public/v1/sites/:publicId/subscription-changes', reportLimit, body, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const publicId = String(req.params.publicId);
    res.status(200).json(await subscriptions.replaceSubscription(publicId, jsonObject(req)));
  });

  // `webpush('identify', externalId, signature)` and `webpush('logout')` (docs/people.md). Limited
  // as subscriptions are: the limit is also what bounds guessing a signature.
  const identityPath = '/public/v1/sites/:publicId/identity';
  router.post(identityPath, subscribeLimit, body, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.status(200).json(await deps.identity.identify(String(req.params.publicId), jsonObject(req)));
  });
  router.delete(identityPath, subscribeLimit, body, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.status(200).json(await deps.identity.logout(String(req.params.publicId), jsonObject(req)));
  });

  // `webpush('tag', key, value)`: the identified visitor's tags the site lets pages set.
  router.post('/public/v1/sites/:publicId/tags', reportLimit, body, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.status(200).json(await deps.visitorTags.tag(String(req.params.publicId), jsonObject(req)));
  });

  // The snippet's report of an opt-in prompt's event (optin/funnel.ts): one counter more, nothing per visitor.
  router.post('/public/v1/sites/:publicId/optin-events', reportLimit, rawBody(OPTIN_EVENT_BODY_LIMIT_BYTES), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.status(200).json(await deps.optInFunnel.report(String(req.params.publicId), jsonObject(req)));
  });

  return router;
}
