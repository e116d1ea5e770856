// The console API's Express router (docs/console.md): every route of console/routes.ts registered
// with its method and path, each running the same chain of steps in the same order: the session
// (401 `Not logged in`) → its CSRF token on every POST, PATCH and DELETE (403 `Invalid CSRF
// token`) → the path's site among the user's (404 `Site not found`, exactly as a site that does
// not exist) → the role (403 for an editor or a viewer on an owner's route, for a viewer on an
// editor's) → the site's plan, by /v2's rule and answer → a JSON content type, the body's size and
// JSON → the backend; then the answer, refusals of a member included, goes into the site's audit
// log before it is sent (routes/audit-trail.ts). Under /console/api/, an unknown path is 404 and a
// known one with another method 405 with Allow.
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Logger } from '@webpush/shared/log.js';
import type { Permission, Principal } from '../auth/authenticator.js';
import type { CallContext, ConsoleBackend } from '../grpc/clients.js';
import { toHttpError } from '../grpc/status-map.js';
import { createBodyReader, jsonObjectText } from '../http/body.js';
import type { ClientResolver } from '../http/client-address.js';
import { sendJson } from '../http/json.js';
import { requestIdOf } from '../http/request-id.js';
import { createRouter, type PathPattern } from '../http/routing.js';
import { auditKindOf, auditTarget, isRecorded, statusOfError, type AuditTrail } from '../routes/audit-trail.js';
import { StreamAnswer } from '../routes/route.js';
import { firstChunkRead, ReadStream, sendStream } from '../routes/stream.js';
import { HttpError, MESSAGES } from '../texts.js';
import { clearedSessionCookie, sessionCookie, sessionHashOf, sessionIdOf } from './cookies.js';
import { consoleHttpError } from './errors.js';
import { hasBody, requireJsonContentType } from './input.js';
import { CONSOLE_API_PREFIX, type ConsoleRoute, type ConsoleSession } from './route.js';
import type { Membership__Output } from '@webpush/contracts/generated/campaign/v1/Membership.js';

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
  /** The sites' audit logs (routes/audit-trail.ts); absent = nothing recorded. */
  audit?: AuditTrail;
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

/** What the steps of one call hand on to the next (res.locals). */
interface CallState {
  presentedSessionHash: string;
  session: ConsoleSession | undefined;
  params: Readonly<Record<string, string>>;
  site: Membership__Output | undefined;
  principal: Principal | undefined;
  bodyJson: string;
}
const stateOf = (res: Response) => res.locals as CallState;

export function consoleApiRouter(deps: ConsoleApiDeps): Router {
  const api = createRouter();
  const steps = consoleSteps(deps);
  for (const route of deps.routes) api.add(route.method, route.path, (pattern) => steps(route, pattern));
  const router = express.Router();
  router.use(onlyConsoleApi);
  router.use(
    api.done(function notFound(_req: Request, res: Response) {
      sendJson(res, 404, { message: MESSAGES.notFound });
    }),
  );
  return router;
}

/** The console API's paths only; every answer under them, 404s and errors included, is never sniffed as a page. */
function onlyConsoleApi(req: Request, res: Response, next: NextFunction) {
  if (!req.path.startsWith(CONSOLE_API_PREFIX)) return next('router');
  res.set('X-Content-Type-Options', 'nosniff');
  next();
}

/** The chain of one route: each step answers (a refusal) or hands on with next(). */
function consoleSteps(deps: ConsoleApiDeps) {
  const readBody = createBodyReader(deps.bodyLimitBytes);

  function publicOrigin(req: Request): string {
    if (deps.publicUrl !== '') return deps.publicUrl;
    const host = req.headers.host;
    return typeof host === 'string' && HOST.test(host) ? `${deps.secureCookie ? 'https' : 'http'}://${host}` : '';
  }

  async function sessionOf(res: Response, hash: string, ctx: CallContext): Promise<ConsoleSession> {
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

  return (route: ConsoleRoute, pattern: PathPattern): (RequestHandler | ErrorRequestHandler)[] => {
    // A route with a limit of its own gets a reader of its own, made once.
    const read = route.bodyLimitBytes === undefined ? readBody : createBodyReader(route.bodyLimitBytes);
    const auditKind = route.audit === 'session' ? 'session' : auditKindOf(route.method, route.audit);

    /**
     * The answer about to be sent, into the audit log of the path's site when the user is one of
     * its members (a refusal of their role or plan too) and the route is recorded (a file always
     * is); a login, logout or accepted link once it succeeded, into each of the user's sites'.
     */
    async function recorded(req: Request, res: Response, status: number, answer: unknown): Promise<void> {
      const audit = deps.audit;
      const state = stateOf(res);
      if (!audit) return;
      const ctx = { requestId: requestIdOf(res) };
      const entry = (siteId: string, email: string, target: string) => ({
        siteId,
        actor: { kind: 'user', id: email, prefix: '', label: '' },
        action: route.operation,
        target,
        status,
        clientAddress: deps.clientOf(req).address,
      });
      if (auditKind === 'session') {
        if (status !== 200) return;
        // Logout: the session it ended; login and an accepted link: the session they answer.
        const view = answer as { user: { email: string }; sites: { id: string }[] };
        const email = state.session?.email ?? view.user.email;
        const sites = state.session ? state.session.sites.map((s) => s.siteId) : view.sites.map((s) => s.id);
        await Promise.all(sites.map((siteId) => audit.record(entry(siteId, email, ''), ctx)));
        return;
      }
      const site = state.site ?? (state.params?.siteId === undefined ? undefined : state.session?.sites.find((s) => s.siteId === state.params.siteId));
      if (!site || !isRecorded(auditKind, answer)) return;
      await audit.record(entry(site.siteId, state.session!.email, auditTarget(state.params, answer instanceof ReadStream ? undefined : answer)), ctx);
    }

    async function requireSession(req: Request, res: Response, next: NextFunction) {
      const state = stateOf(res);
      state.presentedSessionHash = sessionHashOf(sessionIdOf(req));
      if (route.access !== 'public') {
        state.session = await sessionOf(res, state.presentedSessionHash, { requestId: requestIdOf(res) });
        if (STATE_CHANGING.has(req.method) && !csrfMatches(req.headers['x-csrf-token'], state.session.csrfToken)) throw new HttpError(403, MESSAGES.invalidCsrf);
      }
      next();
    }

    async function resolveSite(req: Request, res: Response, next: NextFunction) {
      const state = stateOf(res);
      state.params = Object.freeze(pattern.params(req.path));
      if (route.access === 'member' || route.access === 'editor' || route.access === 'owner') {
        // Another site is answered exactly as one that does not exist.
        const site = state.session!.sites.find((s) => s.siteId === state.params.siteId);
        if (!site) throw new HttpError(404, MESSAGES.siteNotFound);
        if (route.access === 'owner' && site.role !== 'owner') throw new HttpError(403, MESSAGES.ownersOnly);
        if (route.access === 'editor' && site.role !== 'owner' && site.role !== 'editor') throw new HttpError(403, MESSAGES.viewersReadOnly);
        const p = site.permissions;
        state.site = site;
        state.principal = { siteId: site.siteId, permissions: Object.freeze(Object.fromEntries(PERMISSIONS.map((k) => [k, !!p?.[k]])) as Record<Permission, boolean>) };
        if (route.plan && !state.principal.permissions[route.plan.permission]) {
          await recorded(req, res, route.plan.denied.status, undefined);
          return sendJson(res, route.plan.denied.status, route.plan.denied.body);
        }
      }
      next();
    }

    async function readJsonBody(req: Request, res: Response, next: NextFunction) {
      if (route.body !== 'none' && hasBody(req)) requireJsonContentType(req);
      const raw = await read(req, res);
      stateOf(res).bodyJson = route.body === 'none' ? '' : jsonObjectText(raw, route.body === 'json-or-empty' ? '{}' : undefined);
      next();
    }

    async function callBackend(req: Request, res: Response) {
      const { presentedSessionHash, session, params, site, principal, bodyJson } = stateOf(res);
      const ctx = { requestId: requestIdOf(res) };
      let answer;
      try {
        answer = await route.handle({
          params,
          session,
          site,
          principal,
          bodyJson,
          body: bodyJson === '' ? {} : (JSON.parse(bodyJson) as Record<string, unknown>),
          query: req.query as Record<string, unknown>,
          headers: req.headers,
          ctx,
          clientAddress: deps.clientOf(req).address,
          presentedSessionHash,
          publicOrigin: publicOrigin(req),
          startSession: (id) => res.append('Set-Cookie', sessionCookie(id, deps.secureCookie)),
          endSession: () => res.append('Set-Cookie', clearedSessionCookie(deps.secureCookie)),
        });
        // An export: its first chunk read here, so a refusal the backend makes at once is still a JSON error.
        if (answer instanceof StreamAnswer) answer = await firstChunkRead(answer);
      } catch (err) {
        if (err instanceof HttpError) throw err;
        const mapped = route.errors === 'v2' ? toHttpError(err, route.genericMessage) : consoleHttpError(err, route.genericMessage);
        if (mapped.status >= 500) deps.logger.error('backend call failed', { requestId: ctx.requestId, operation: route.operation, err: err instanceof Error ? err : undefined });
        throw mapped;
      }
      await recorded(req, res, 200, answer);
      if (answer instanceof ReadStream) return sendStream(req, res, answer, deps.logger);
      sendJson(res, 200, answer);
    }

    /** Any refusal, recorded with its status (when the user is a member of the path's site) before the router answers it. */
    async function recordRefusal(err: unknown, req: Request, res: Response, next: NextFunction) {
      await recorded(req, res, statusOfError(err), undefined);
      next(err);
    }

    return [requireSession, resolveSite, readJsonBody, callBackend, recordRefusal];
  };
}
