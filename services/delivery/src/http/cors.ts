// The plugin endpoints' CORS headers (packages/shared/src/plugin-cors.ts, shared with the
// gateway, which answers for this service when it cannot be reached).
import type { NextFunction, Request, Response } from 'express';
import { PLUGIN_CORS_HEADERS, PLUGIN_PREFLIGHT_HEADERS } from '@webpush/shared/plugin-cors.js';

export function cors(req: Request, res: Response, next: NextFunction): void {
  res.set(PLUGIN_CORS_HEADERS);
  if (req.method !== 'OPTIONS') return next();
  res.set(PLUGIN_PREFLIGHT_HEADERS);
  res.status(204).end();
}
