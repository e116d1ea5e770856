// Request bodies of the plugin and tracking endpoints: read raw whatever the content type
// (sendBeacon and no-preflight fetches send JSON as text/plain), then parsed here.
import express, { type Request } from 'express';
import { HttpError } from './http-error.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

/** The raw body, any content type, up to `limit` bytes (413 beyond). */
export const rawBody = (limit = BODY_LIMIT_BYTES) => express.raw({ type: () => true, limit });

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
