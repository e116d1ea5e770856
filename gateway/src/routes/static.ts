// Routes that need no API key: the contract itself and the health probe.
import type { NextFunction, Request, Response } from 'express';
import { sendMethodNotAllowed } from './api.js';

export interface ContractFiles {
  yaml: string;
  json: string;
}

export function staticRoutes(contract: ContractFiles) {
  const table: Record<string, (res: Response) => void> = {
    '/healthz': (res) => res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok' }),
    '/v2/openapi.json': (res) => res.status(200).type('application/json').send(contract.json),
    '/v2/openapi.yaml': (res) => res.status(200).type('application/yaml').send(contract.yaml),
  };
  return function serveStatic(req: Request, res: Response, next: NextFunction): void {
    const handler = Object.hasOwn(table, req.path) ? table[req.path] : undefined;
    if (!handler) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, ['GET']);
    handler(res);
  };
}
