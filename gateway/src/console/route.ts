// The shape of one console API route (docs/console.md, "The console API"). The console's
// router (console/api.ts) runs the same steps for all of them: session → CSRF → the site (a member's,
// else 404) → the role → the site's plan (as /v2) → content type, body size, JSON → backend.
import type { IncomingHttpHeaders } from 'node:http';
import type { Membership__Output } from '@webpush/contracts/generated/campaign/v1/Membership.js';
import type { Permission, Principal } from '../auth/authenticator.js';
import type { CallContext } from '../grpc/clients.js';
import type { Method } from '../http/routing.js';
import type { AuditKind } from '../routes/audit-trail.js';

/**
 * Who may call a route: anyone (`public`: logging in, a link's preview, accepting a link), any
 * logged-in user (`session`), or a member of the path's site — any (`member`: viewers too, so
 * only routes that change nothing), one who may change campaigns and topics (`editor`: owners and
 * editors), or an owner (`owner`). Every route of a site that changes something is `editor` or
 * `owner`: a viewer changes nothing (the route × role test walks every route to hold it).
 */
export type Access = 'public' | 'session' | 'member' | 'editor' | 'owner';

export interface ConsoleSession {
  /** SHA-256 of the session id, as the campaign service knows it. */
  hash: string;
  email: string;
  csrfToken: string;
  sites: Membership__Output[];
}

export interface ConsoleInput {
  /** Path parameters by name, percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** The logged-in user (every route but the public ones). */
  session: ConsoleSession | undefined;
  /** The path's site, a membership of the user (site routes). */
  site: Membership__Output | undefined;
  /** The site and its plan as /v2 routes take them (site routes). */
  principal: Principal | undefined;
  /** The body's JSON text ('' for routes without one), and the object it holds ({} for none). */
  bodyJson: string;
  body: Readonly<Record<string, unknown>>;
  query: Readonly<Record<string, unknown>>;
  headers: IncomingHttpHeaders;
  ctx: CallContext;
  /** The client's address as the gateway decided it (TRUSTED_PROXIES). */
  clientAddress: string;
  /** The session id the request came with, hashed ('' for none), valid or not. */
  presentedSessionHash: string;
  /** The request's origin as the public sees it (PUBLIC_URL, else the Host it was sent to). */
  publicOrigin: string;
  /** Sets the session cookie on the answer (login, accepted link) … */
  startSession(sessionId: string): void;
  /** … or clears it (logout). */
  endSession(): void;
}

export interface ConsoleRoute {
  method: Method;
  /** `/console/api/sites/{siteId}/keys/{keyId}/revoke`: `{name}` is one path segment. */
  path: string;
  operation: string;
  access: Access;
  /**
   * For the site's audit log (routes/audit-trail.ts); absent: by the method. `session`: a login,
   * a logout or an accepted link, recorded once it succeeded in the log of each site of the user.
   */
  audit?: AuditKind | 'session';
  /** The /v2 rule of the site's plan, where it applies: the permission, and what a plan without it gets. */
  plan?: { permission: Permission; denied: { status: number; body: unknown } };
  /** 'none': any body is only size-checked; 'json': a JSON object is required; 'json-or-empty': absent means {}. */
  body: 'none' | 'json' | 'json-or-empty';
  bodyLimitBytes?: number;
  /**
   * How a backend's refusal is answered: 'v2' as the /v2 route it runs answers it (the campaign
   * routes: /v2's statuses and messages); 'console' by the console's map (console/errors.ts).
   */
  errors: 'v2' | 'console';
  /** The 500 text. */
  genericMessage: string;
  handle(input: ConsoleInput): Promise<unknown>;
}

export const CONSOLE_API_PREFIX = '/console/api/';
