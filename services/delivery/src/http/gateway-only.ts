// The delivery service's HTTP app serves only the gateway: every request must carry the gateway's
// internal token (packages/shared/src/internal-auth.ts), so nothing else on the network can call
// the plugin endpoints past the gateway's checks, or pass a forged visitor address or country.
// The liveness probe stays open (orchestrators call it without credentials).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { INTERNAL_AUTH_HEADER, UNAUTHENTICATED_MESSAGE, type InternalAuth } from '@webpush/shared/internal-auth.js';

export function gatewayOnly(auth: InternalAuth): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (auth.callerOf(req.headers[INTERNAL_AUTH_HEADER]) === 'gateway') return next();
    res.status(401).set('Cache-Control', 'no-store').json({ message: UNAUTHENTICATED_MESSAGE });
  };
}
