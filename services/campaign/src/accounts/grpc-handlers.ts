// campaign.v1.Console handlers (packages/contracts/protos/campaign/v1/console.proto): decode → one console call →
// encode; the console's refusals → gRPC status, once.
import * as grpc from '@grpc/grpc-js';
import { BUSY_RETRY_AFTER_SECONDS, isConnectionWaitTimeout } from '@webpush/shared/db.js';
import { busyStatus, refusalStatus } from '@webpush/shared/grpc.js';
import type { Logger } from '@webpush/shared/log.js';
import type { ConsoleHandlers } from '@webpush/contracts/generated/campaign/v1/Console.js';
import type { ApiKey } from '@webpush/contracts/generated/campaign/v1/ApiKey.js';
import type { SessionView } from '@webpush/contracts/generated/campaign/v1/SessionView.js';
import { AudienceUnavailableError, ValidationError } from '../base/errors.js';
import { MESSAGES } from '../base/texts.js';
import type { KeyInfo } from '../sites/index.js';
import type { Accounts, SessionView as DomainSessionView } from './accounts.js';
import { ConsoleConflictError, ConsoleNotFoundError, PasswordChecksBusyError, TooManyLoginsError, WrongLoginError } from './errors.js';
import type { ConsoleKeys } from './keys.js';
import type { ConsoleSites } from './sites.js';

export interface ConsoleDeps {
  accounts: Accounts;
  keys: ConsoleKeys;
  sites: ConsoleSites;
}

/** The trailing metadata key of a throttled (or busy) login's wait, in whole seconds. */
export const RETRY_AFTER_METADATA = 'retry-after';

export function consoleStatus(err: unknown, method: string, log: Logger): Partial<grpc.StatusObject> {
  if (err instanceof ValidationError) return refusalStatus(grpc.status.INVALID_ARGUMENT, err.message);
  if (err instanceof WrongLoginError) return refusalStatus(grpc.status.UNAUTHENTICATED, err.message);
  if (err instanceof ConsoleNotFoundError) return refusalStatus(grpc.status.NOT_FOUND, err.message);
  if (err instanceof ConsoleConflictError) return refusalStatus(grpc.status.FAILED_PRECONDITION, err.message);
  if (err instanceof TooManyLoginsError || err instanceof PasswordChecksBusyError) {
    const metadata = new grpc.Metadata();
    metadata.set(RETRY_AFTER_METADATA, String(err.retryAfterSeconds));
    return { ...refusalStatus(grpc.status.RESOURCE_EXHAUSTED, err.message), metadata };
  }
  if (isConnectionWaitTimeout(err) || err instanceof AudienceUnavailableError) return busyStatus(BUSY_RETRY_AFTER_SECONDS);
  try {
    log.error('unexpected error', { method, err: err instanceof Error ? err : new Error(String(err)) });
  } catch {
    // A log line that cannot be written must not cost the caller its answer.
  }
  return { code: grpc.status.INTERNAL, details: MESSAGES.internal };
}

function unary<Req, Res>(method: string, log: Logger, fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request)
      .then(
        (res) => callback(null, res),
        (err) => callback(consoleStatus(err, method, log)),
      )
      .catch((err: unknown) => log.error('answering the call failed', { method, err }));
  };
}

const apiKey = (k: KeyInfo): ApiKey => ({
  id: k.keyId,
  label: k.label,
  prefix: k.prefix,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt ?? '',
  revokedAt: k.revokedAt ?? '',
});

const sessionView = (s: DomainSessionView): SessionView => ({
  email: s.email,
  csrfToken: s.csrfToken,
  sites: s.sites.map((m) => ({ siteId: m.siteId, name: m.name, role: m.role, permissions: m.permissions })),
});

const throttleAnswer = (perMinute: number | null) => (perMinute === null ? {} : { defaultThrottlePerMinute: perMinute });

export function createConsoleHandlers({ accounts, keys, sites }: ConsoleDeps, log: Logger): ConsoleHandlers {
  return {
    Login: unary('Login', log, async (req) => {
      const started = await accounts.login({ email: req.email, password: req.password, clientAddress: req.clientAddress, previousSessionHash: req.previousSessionHash });
      return { sessionId: started.sessionId, session: sessionView(started) };
    }),
    Logout: unary('Logout', log, async (req) => {
      await accounts.logout(req.sessionHash);
      return {};
    }),
    Session: unary('Session', log, async (req) => {
      const session = await accounts.session(req.sessionHash);
      return session ? { found: true, session: sessionView(session) } : { found: false };
    }),
    AcceptInvite: unary('AcceptInvite', log, async (req) => {
      const started = await accounts.acceptLink({ token: req.token, password: req.password, sessionHash: req.sessionHash, clientAddress: req.clientAddress });
      return { sessionId: started.sessionId, session: sessionView(started) };
    }),
    SiteInfo: unary('SiteInfo', log, async (req) => {
      const site = await sites.info(req.siteId);
      return { id: site.id, name: site.name, publicId: site.publicId, planName: site.planName, permissions: site.permissions };
    }),
    ListKeys: unary('ListKeys', log, async (req) => ({ keys: (await keys.list(req.siteId)).map(apiKey) })),
    CreateKey: unary('CreateKey', log, async (req) => {
      const issued = await keys.create(req.siteId, req.label);
      return { key: apiKey(issued.key), apiKey: issued.apiKey };
    }),
    RevokeKey: unary('RevokeKey', log, async (req) => ({ key: apiKey(await keys.revoke(req.siteId, req.keyId)) })),
    RotateKey: unary('RotateKey', log, async (req) => {
      const issued = await keys.rotate(req.siteId, req.keyId);
      return { key: apiKey(issued.key), apiKey: issued.apiKey, revoked: apiKey(issued.revoked) };
    }),
    ListMembers: unary('ListMembers', log, async (req) => ({ members: await accounts.siteMembers(req.siteId) })),
    UpdateMember: unary('UpdateMember', log, async (req) => accounts.changeRole(req.siteId, req.userId, req.role)),
    RemoveMember: unary('RemoveMember', log, async (req) => {
      await accounts.removeMember(req.siteId, req.userId);
      return {};
    }),
    GetSiteThrottle: unary('GetSiteThrottle', log, async (req) => throttleAnswer(await sites.throttle(req.siteId))),
    SetSiteThrottle: unary('SetSiteThrottle', log, async (req) =>
      throttleAnswer(await sites.setThrottle(req.siteId, req.perMinute === undefined || req.perMinute === null ? null : req.perMinute, req.validateOnly)),
    ),
    CreateInvite: unary('CreateInvite', log, async (req) =>
      accounts.createInvite({ siteId: req.siteId, email: req.email, role: req.role, invitedByEmail: req.invitedByEmail, baseUrl: req.baseUrl }),
    ),
    ListInvites: unary('ListInvites', log, async (req) => ({ invites: await accounts.listInvites(req.siteId) })),
    RevokeInvite: unary('RevokeInvite', log, async (req) => {
      await accounts.revokeInvite(req.siteId, req.inviteId);
      return {};
    }),
    LookupInvite: unary('LookupInvite', log, async (req) => accounts.previewLink(req.token)),
    EstimateAudience: unary('EstimateAudience', log, async (req) => ({ totalUsers: await sites.estimate(req.siteId, req.bodyJson) })),
  };
}
