// Correlation id: a sane incoming X-Request-Id is kept (so a caller can follow one call through
// its own logs and ours); anything else is replaced, so a header cannot inject into log lines.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(res: Response): string {
  return String(res.locals.requestId);
}

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}
