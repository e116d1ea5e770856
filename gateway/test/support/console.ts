// The console API as a browser calls it: one client per browser, holding the session cookie it was
// given and the session's CSRF token, sending both as the console's pages do. Users are made
// through the operators' side (invites) and accepted through the API itself.
import { expect } from 'chai';
import { createAccounts, type Role } from '../../../services/campaign/src/accounts/accounts.js';
import type { Pool } from '@webpush/shared/db.js';
import { consoleRoutes } from '../../src/console/routes.js';
import type { ConsoleRoute } from '../../src/console/route.js';

export interface ConsoleReply {
  status: number;
  headers: Headers;
  body: unknown;
  /** Each Set-Cookie header of the answer. */
  cookies: string[];
}

export interface ConsoleCallOptions {
  /** JSON body; a string is sent as it is. */
  body?: unknown;
  /** true (default on POST/PATCH/DELETE): the session's token; false: none; a string: that. */
  csrf?: boolean | string;
  headers?: Record<string, string>;
  /** The client's address as a trusted proxy tells it (X-Forwarded-For). */
  from?: string;
}

export const PASSWORD = 'a long enough password';
export const SESSION_COOKIE_VALUE = /^console_session=([A-Za-z0-9_-]{43});/;

/** One browser: its cookie jar (the session cookie only) and the token the API last gave it. */
export class ConsoleBrowser {
  cookie = '';
  csrfToken = '';

  constructor(
    readonly baseUrl: string,
    /** Its address, as the trusted proxy in front of the test gateway says. */
    readonly address: string,
  ) {}

  async call(method: string, path: string, opts: ConsoleCallOptions = {}): Promise<ConsoleReply> {
    const headers: Record<string, string> = { 'X-Forwarded-For': opts.from ?? this.address, ...opts.headers };
    if (this.cookie) headers.Cookie = `console_session=${this.cookie}`;
    const csrf = opts.csrf ?? ['POST', 'PATCH', 'DELETE'].includes(method);
    if (csrf === true && this.csrfToken) headers['X-CSRF-Token'] = this.csrfToken;
    if (typeof csrf === 'string') headers['X-CSRF-Token'] = csrf;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await res.text();
    const cookies = res.headers.getSetCookie();
    for (const c of cookies) {
      const m = /^console_session=([^;]*);/.exec(c);
      if (m) this.cookie = m[1];
    }
    // JSON answers parsed; anything else (an export's NDJSON or CSV stream) kept as its text.
    const parsed: unknown = text === '' ? undefined : (res.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : text;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { csrfToken?: unknown }).csrfToken === 'string') this.csrfToken = (parsed as { csrfToken: string }).csrfToken;
    return { status: res.status, headers: res.headers, body: parsed, cookies };
  }

  async login(email: string, password = PASSWORD): Promise<ConsoleReply> {
    const reply = await this.call('POST', '/console/api/login', { body: { email, password } });
    expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
    return reply;
  }
}

/** Makes users as the operators do (an invite) and has them accept it through the API. */
export function consoleUsers(pool: Pool, baseUrl: string) {
  const accounts = createAccounts(pool);
  let n = 0;
  return {
    accounts,
    /** A new user, member of `siteId` as `role`, logged in on a browser of their own. */
    async newUser(siteId: string, role: Role = 'owner', email = `user${++n}.${Date.now()}@example.com`): Promise<{ email: string; browser: ConsoleBrowser }> {
      const invite = await accounts.invite({ site: siteId, email, role, baseUrl });
      const browser = new ConsoleBrowser(baseUrl, `192.0.2.${(n % 250) + 1}`);
      const reply = await browser.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(invite.link), password: PASSWORD } });
      expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
      return { email, browser };
    },
    /** Adds an existing user to another site (an invite accepted with their own session). */
    async addToSite(user: { email: string; browser: ConsoleBrowser }, siteId: string, role: Role): Promise<void> {
      const invite = await accounts.invite({ site: siteId, email: user.email, role, baseUrl });
      const reply = await user.browser.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(invite.link) } });
      expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
    },
  };
}

export const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

/** The console's route table itself (only its methods, paths and rules are read). */
export function routeTable(): ConsoleRoute[] {
  const never = new Proxy({}, { get: () => () => Promise.reject(new Error('not called')) });
  return consoleRoutes({ console: never as never, consoleData: never as never, campaigns: never as never, audience: never as never, auditLog: never as never, webhooks: never as never, templates: never as never, automations: never as never });
}

/** A route's path with its parameters filled in. */
export function pathOf(route: ConsoleRoute, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for {${name}} of ${route.path}`);
    return encodeURIComponent(params[name]);
  });
}
