// Browsers call the plugin endpoints from the customer's pages, so any origin may, without
// credentials. Retry-After is exposed so the plugin can honour a 429.
import type { NextFunction, Request, Response } from 'express';

export function cors(req: Request, res: Response, next: NextFunction): void {
  res.set('Access-Control-Allow-Origin', '*');
  res.set('Access-Control-Expose-Headers', 'Retry-After');
  if (req.method !== 'OPTIONS') return next();
  res.set('Access-Control-Allow-Methods', 'POST, DELETE');
  res.set('Access-Control-Allow-Headers', 'Content-Type');
  res.set('Access-Control-Max-Age', '600');
  res.status(204).end();
}
