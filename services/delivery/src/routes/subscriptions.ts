// Site plugin endpoints: subscribe and unsubscribe a browser's push subscription.
import { rateLimited } from './rate-limited.js';
import express, { type Request, type Router } from 'express';
import type { Subscriptions } from '../domain/subscriptions.js';
import { clientCountry } from './client-address.js';
import { HttpError } from './http-error.js';
import type { RateLimiter } from './rate-limiter.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

/** The body as a JSON object; any other JSON value, or none, is not a valid payload. */
export function jsonObject(req: Request): Record<string, unknown> {
  const raw: unknown = req.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) throw new HttpError(400, 'Invalid JSON body');
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'Invalid JSON body');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400, 'Invalid JSON body');
  return value as Record<string, unknown>;
}

export function subscriptionRoutes(deps: { subscriptions: Subscriptions; limiter: RateLimiter }): Router {
  const router = express.Router();
  const path = '/public/v1/sites/:publicId/subscriptions';

  const rateLimit = rateLimited(deps.limiter);
  // Any content type: sendBeacon and no-preflight fetches send JSON as text/plain.
  const body = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES });

  router.post(path, rateLimit, body, async (req, res) => {
    // The country is the gateway's (x-client-country), never the body's or a client header's.
    const result = await deps.subscriptions.subscribe(String(req.params.publicId), jsonObject(req), clientCountry(req));
    res.status(result.created ? 201 : 200).json({ id: result.id, created: result.created });
  });

  router.delete(path, rateLimit, body, async (req, res) => {
    res.status(200).json(await deps.subscriptions.unsubscribe(String(req.params.publicId), jsonObject(req)));
  });

  return router;
}
