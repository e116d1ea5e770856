// One dispatcher for the console API (docs/console.md), so every route runs the same checks in
// the same order: the session (401 `Not logged in`) → its CSRF token on every POST, PATCH and
// DELETE (403 `Invalid CSRF token`) → the path's site among the user's (404 `Site not found`,
// exactly as a site that does not exist) → the role (403 for an editor on an owner's route) → the
// site's plan, by /v2's rule and answer → a JSON content type, the body's size and JSON → the
// backend. 404 and 405 (with Allow) come from the same table that routes the calls.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../../services/shared/src/log.js';
import type { Permission } from '../auth/authenticator.js';
import type { CallContext, ConsoleBackend } from '../grpc/clients.js';
import { toHttpError } from '../grpc/status-map.js';
import { createBodyReader, jsonObjectText, type BodyReader } from '../http/body.js';
import type { ClientResolver } from '../http/client-address.js';
import { requestIdOf } from '../http/request-id.js';
import { HttpError, MESSAGES } from '../texts.js';
import { sendJson, sendMethodNotAllowed } from '../routes/api.js';
import { clearedSessionCookie, sessionCookie, sessionHashOf, sessionIdOf } from './cookies.js';
import { consoleHttpError } from './errors.js';
import { hasBody, requireJsonContentType } from './input.js';
import { compilePath, CONSOLE_API_PREFIX, type ConsoleRoute, type ConsoleSession } from './route.js';

export interface ConsoleApiDeps {
  routes: ConsoleRoute[];
  /** Reads the session of every call but the public ones. */
  backend: Pick<ConsoleBackend, 'session'>;
  bodyLimitBytes: number;
  logger: Logger;
  clientOf: ClientResolver;
  /** The cookie's `Secure` attribute (CONSOLE_SECURE_COOKIE). */
  secureCookie: boolean;
  /** The public origin (PUBLIC_URL); '' = the origin the request was sent to. */
  publicUrl: string;
}

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const PERMISSIONS: readonly Permission[] = ['create', 'reports', 'delete', 'audience'];
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The header's token against the session's, in constant time (digests of equal length). */
function csrfMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given === '' || given.length > 512 || expected === '') return false;
  return timingSafeEqual(digest(given), digest(expected));
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed escape is just an id that is not there (404), never a 500
  }
}

export function createConsoleApi(deps: ConsoleApiDeps): RequestHandler {
  const table = deps.routes.map((route) => ({ route, ...compilePath(route.path) }));
  const readBody = createBodyReader(deps.bodyLimitBytes);
  const readers = new Map<ConsoleRoute, BodyReader>(deps.routes.filter((r) => r.bodyLimitBytes !== undefined).map((r) => [r, createBodyReader(r.bodyLimitBytes!)]));

  function publicOrigin(req: Request): string {
    if (deps.publicUrl !== '') return deps.publicUrl;
    const host = req.headers.host;
    return typeof host === 'string' && HOST.test(host) ? `${deps.secureCookie ? 'https' : 'http'}://${host}` : '';
  }

  async function sessionOf(req: Request, res: Response, hash: string, ctx: CallContext): Promise<ConsoleSession> {
    const refuse = () => {
      // A cookie that no longer names a session goes, so the browser stops sending it.
      if (hash !== '') res.append('Set-Cookie', clearedSessionCookie(deps.secureCookie));
      return new HttpError(401, MESSAGES.notLoggedIn);
    };
    if (hash === '') throw refuse();
    let answer;
    try {
      answer = await deps.backend.session(hash, ctx);
    } catch (err) {
      const mapped = consoleHttpError(err, MESSAGES.internal);
      if (mapped.status >= 500) deps.logger.error('session check failed', { requestId: ctx.requestId, err: err instanceof Error ? err : undefined });
      throw mapped;
    }
    if (!answer.found || !answer.session) throw refuse();
    return { hash, email: answer.session.email, csrfToken: answer.session.csrfToken, sites: answer.session.sites };
  }

  async function run(entry: (typeof table)[number], req: Request, res: Response): Promise<{ status: number; body: unknown }> {
    const { route } = entry;
    const ctx = { requestId: requestIdOf(res) };
    const presentedSessionHash = sessionHashOf(sessionIdOf(req));

    let session: ConsoleSession | undefined;
    if (route.access !== 'public') {
      session = await sessionOf(req, res, presentedSessionHash, ctx);
      if (STATE_CHANGING.has(req.method) && !csrfMatches(req.headers['x-csrf-token'], session.csrfToken)) throw new HttpError(403, MESSAGES.invalidCsrf);
    }

    const values = (entry.pattern.exec(req.path) ?? []).slice(1).map(decodeParam);
    const params = Object.freeze(Object.fromEntries(entry.names.map((name, i) => [name, values[i]])));
    let site;
    let principal;
    if (route.access === 'member' || route.access === 'editor' || route.access === 'owner') {
      // Another site is answered exactly as one that does not exist.
      site = session!.sites.find((s) => s.siteId === params.siteId);
      if (!site) throw new HttpError(404, MESSAGES.siteNotFound);
      if (route.access === 'owner' && site.role !== 'owner') throw new HttpError(403, MESSAGES.ownersOnly);
      const p = site.permissions;
      principal = { siteId: site.siteId, permissions: Object.freeze(Object.fromEntries(PERMISSIONS.map((k) => [k, !!p?.[k]])) as Record<Permission, boolean>) };
      if (route.plan && !principal.permissions[route.plan.permission]) return route.plan.denied;
    }

    if (route.body !== 'none' && hasBody(req)) requireJsonContentType(req);
    const raw = await (readers.get(route) ?? readBody)(req, res);
    const bodyJson = route.body === 'none' ? '' : jsonObjectText(raw, route.body === 'json-or-empty' ? '{}' : undefined);
    const body = bodyJson === '' ? {} : (JSON.parse(bodyJson) as Record<string, unknown>);

    try {
      const answer = await route.handle({
        params,
        session,
        site,
        principal,
        bodyJson,
        body,
        query: req.query as Record<string, unknown>,
        headers: req.headers,
        ctx,
        clientAddress: deps.clientOf(req).address,
        presentedSessionHash,
        publicOrigin: publicOrigin(req),
        startSession: (id) => res.append('Set-Cookie', sessionCookie(id, deps.secureCookie)),
        endSession: () => res.append('Set-Cookie', clearedSessionCookie(deps.secureCookie)),
      });
      return { status: 200, body: answer };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const mapped = route.errors === 'v2' ? toHttpError(err, route.genericMessage) : consoleHttpError(err, route.genericMessage);
      if (mapped.status >= 500) deps.logger.error('backend call failed', { requestId: ctx.requestId, operation: route.operation, err: err instanceof Error ? err : undefined });
      throw mapped;
    }
  }

  return async function consoleApi(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!req.path.startsWith(CONSOLE_API_PREFIX)) return next();
    // Every answer, the 404s and errors handled further on included: JSON is never sniffed as a page.
    res.set('X-Content-Type-Options', 'nosniff');
    const matching = table.filter((entry) => entry.pattern.test(req.path));
    if (matching.length === 0) return sendJson(res, 404, { message: MESSAGES.notFound });
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const entry = matching.find((e) => e.route.method === method);
    if (!entry) return sendMethodNotAllowed(res, matching.map((e) => e.route.method));
    try {
      const answer = await run(entry, req, res);
      sendJson(res, answer.status, answer.body);
    } catch (err) {
      if (!(err instanceof HttpError)) return next(err);
      sendJson(res, err.status, { message: err.message }, err.headers);
    }
  };
}
