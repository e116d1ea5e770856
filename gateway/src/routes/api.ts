// One dispatcher for the /v2 API routes, so every route runs the same checks in the same order
// (docs/api-decisions.md): key present → key guessing limit of the client → key → the key's rate
// limit → plan → body size → JSON → backend, and so 405 and its Allow header come from the same
// table that routes the calls. A caller within its limits sees exactly the spec's answers.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../../services/shared/src/log.js';
import { sha256Hex, type Authenticator } from '../auth/authenticator.js';
import { backendUnavailable, neverReachedBackend, toHttpError } from '../grpc/status-map.js';
import { createBodyReader, jsonObjectText } from '../http/body.js';
import type { ClientResolver } from '../http/client-address.js';
import type { RateDecision } from '../../../services/shared/src/rate-limit.js';
import { requestIdOf } from '../http/request-id.js';
import { HttpError, MESSAGES, tooManyRequests } from '../texts.js';
import { StreamAnswer, type ApiRoute } from './route.js';

export interface ApiDeps {
  routes: ApiRoute[];
  authenticator: Authenticator;
  bodyLimitBytes: number;
  logger: Logger;
  /** Abuse limits (services/shared/src/rate-limit.ts); absent = none. */
  limits?: ApiLimits;
}

export interface ApiLimits {
  clientOf: ClientResolver;
  /** Calls per key, keyed by the key's SHA-256. */
  perKey: { take(keyHash: string): RateDecision };
  /** Distinct unknown keys per client address. */
  keyFailures: { check(client: string): RateDecision; fail(client: string, keyId: string): void };
}

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

/** A StreamAnswer whose first chunk has been read (or that turned out empty). */
class ReadStream {
  constructor(
    readonly answer: StreamAnswer,
    readonly first: IteratorResult<Buffer>,
    readonly rest: AsyncIterator<Buffer>,
  ) {}
}

async function firstChunkRead(answer: StreamAnswer): Promise<ReadStream> {
  const rest = answer.chunks[Symbol.asyncIterator]();
  return new ReadStream(answer, await rest.next(), rest);
}

/** 200 and the chunks; a failure after the first chunk can only cut the answer short. */
async function stream(req: Request, res: Response, read: ReadStream, logger: Logger): Promise<void> {
  const { answer } = read;
  res.status(200).set({ 'Cache-Control': 'no-store', 'Content-Type': answer.contentType, 'Content-Disposition': `attachment; filename="${answer.filename}"` });
  if (req.method === 'HEAD') {
    answer.cancel();
    res.end();
    return;
  }
  let gone = false;
  res.once('close', () => {
    if (!res.writableFinished) (gone = true), answer.cancel();
  });
  try {
    for (let next = read.first; !next.done && !gone; next = await read.rest.next()) {
      if (!res.write(next.value)) await new Promise<void>((resolve) => {
        const go = () => (res.off('drain', go), res.off('close', go), resolve());
        res.on('drain', go);
        res.on('close', go);
      });
    }
    if (!gone) res.end();
  } catch (err) {
    // Headers are out: the client sees the answer end early (no final chunk), never a complete-looking one.
    // A client that went away cancelled the backend call itself: nothing to report then.
    if (!gone) logger.error('stream answer failed after it started', { requestId: requestIdOf(res), err: err instanceof Error ? err : undefined });
    answer.cancel();
    res.destroy();
  }
}

export function sendMethodNotAllowed(res: Response, methods: Iterable<string>): void {
  const allowed = new Set(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  res.set('Allow', [...allowed].join(', '));
  sendJson(res, 405, { message: MESSAGES.methodNotAllowed });
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed escape is just an id that does not exist (404), never a 500
  }
}

export function createApiDispatcher({ routes, authenticator, bodyLimitBytes, logger, limits }: ApiDeps): RequestHandler {
  const readBody = createBodyReader(bodyLimitBytes);
  // Routes with a limit of their own (an import) get a reader of their own, made once.
  const readers = new Map(routes.filter((r) => r.bodyLimitBytes !== undefined).map((r) => [r, createBodyReader(r.bodyLimitBytes!)]));

  async function run(route: ApiRoute, req: Request, res: Response): Promise<{ status: number; body: unknown }> {
    const ctx = { requestId: requestIdOf(res) };
    const rawKey = req.headers.authorization;
    if (rawKey === undefined || rawKey === '') throw new HttpError(403, MESSAGES.notAuthorized);
    // A client that has sent too many unknown keys is refused before its key is even looked up:
    // guessing costs no backend call and tells nothing, not even whether a guess was right.
    const client = limits?.clientOf(req).address ?? '';
    const guessing = limits?.keyFailures.check(client);
    if (guessing && !guessing.allowed) throw tooManyRequests(guessing.retryAfterSeconds);
    const keyHash = sha256Hex(rawKey);
    let principal;
    try {
      principal = await authenticator.authenticate(keyHash, ctx);
    } catch (err) {
      logger.error('key check failed', { requestId: ctx.requestId, operation: route.operation, err: err instanceof Error ? err : undefined });
      // A key check that never reached the campaign service is as safe to retry as any call.
      throw neverReachedBackend(err) ? backendUnavailable() : new HttpError(500, route.genericMessage);
    }
    if (!principal) {
      limits?.keyFailures.fail(client, keyHash.slice(0, 32));
      throw new HttpError(403, MESSAGES.notAuthorized);
    }
    const quota = limits?.perKey.take(keyHash);
    if (quota && !quota.allowed) throw tooManyRequests(quota.retryAfterSeconds);
    if (!principal.permissions[route.permission]) return route.denied;

    const body = await (readers.get(route) ?? readBody)(req, res);
    const bodyJson = route.body === 'none' ? '' : jsonObjectText(body, route.body === 'json-or-empty' ? '{}' : undefined);
    const params = (route.pattern.exec(req.path) ?? []).slice(1).map(decodeParam);
    try {
      const body = await route.handle({ principal, params, bodyJson, query: req.query as Record<string, unknown>, headers: req.headers, ctx });
      if (body instanceof StreamAnswer) return { status: 200, body: await firstChunkRead(body) };
      return { status: 200, body };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const mapped = toHttpError(err, route.genericMessage);
      if (mapped.status >= 500) logger.error('backend call failed', { requestId: ctx.requestId, operation: route.operation, err: err instanceof Error ? err : undefined });
      throw mapped;
    }
  }

  return async function api(req: Request, res: Response, next: NextFunction): Promise<void> {
    const matching = routes.filter((r) => r.pattern.test(req.path));
    if (matching.length === 0) return next();
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = matching.find((r) => r.method === method);
    if (!route) return sendMethodNotAllowed(res, matching.map((r) => r.method));
    try {
      const answer = await run(route, req, res);
      if (answer.body instanceof ReadStream) return await stream(req, res, answer.body, logger);
      sendJson(res, answer.status, answer.body);
    } catch (err) {
      if (!(err instanceof HttpError)) return next(err);
      sendJson(res, err.status, { message: err.message }, err.headers);
    }
  };
}
