// Express middleware answering 429 `Too many requests` (with Retry-After) once a visitor's address
// (as the gateway passed it, routes/client-address.ts) is over its limit; shared by every public
// route of the site plugin.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { clientAddress } from './client-address.js';
import type { RateLimiter } from '@webpush/shared/rate-limit.js';

export function rateLimited(limiter: RateLimiter): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const decision = limiter.take(clientAddress(req));
    if (decision.allowed) return next();
    res.set('Retry-After', String(decision.retryAfterSeconds));
    res.status(429).json({ message: 'Too many requests' });
  };
}
