// How the gateway writes a JSON answer: never cached, and JSON text made elsewhere (a campaign
// page, built by @webpush/contracts campaign-json.ts) sent as it is instead of being parsed and
// serialised again.
import type { Response } from 'express';
import { MESSAGES } from '../texts.js';

/** An answer that is already JSON text (UTF-8), written as is instead of being serialised. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

export function sendJson(res: Response, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.status(status).set('Cache-Control', 'no-store').set(headers);
  // For bytes, what res.json would do after stringifying: the same Content-Type, then send()
  // (Content-Length, no body for HEAD, the same freshness rule). gateway/test/json-bytes.test.ts
  // compares the two answers byte for byte.
  if (body instanceof JsonBytes) res.set('Content-Type', 'application/json; charset=utf-8').send(body.bytes);
  else res.json(body);
}

/** 405 with the Allow header; a GET route takes HEAD too. */
export function sendMethodNotAllowed(res: Response, methods: Iterable<string>): void {
  const allowed = new Set(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  res.set('Allow', [...allowed].join(', '));
  sendJson(res, 405, { message: MESSAGES.methodNotAllowed });
}
