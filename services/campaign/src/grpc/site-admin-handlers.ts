// campaign.v1.SiteAdmin handlers (packages/contracts/protos/campaign/v1/site_admin.proto): the operators' API over
// the operator functions (sites/operators.ts) and the console's accounts; their refusals →
// gRPC status, once. Only callers with the operators' token get here (grpc-server.ts).
import * as grpc from '@grpc/grpc-js';
import { BUSY_RETRY_AFTER_SECONDS, isConnectionWaitTimeout } from '@webpush/shared/db.js';
import { busyStatus, refusalStatus } from '@webpush/shared/grpc.js';
import type { Logger } from '@webpush/shared/log.js';
import type { SiteAdminHandlers } from '@webpush/contracts/generated/campaign/v1/SiteAdmin.js';
import { ValidationError } from '../base/errors.js';
import { OperatorConflictError, OperatorError, OperatorNotFoundError, PERMISSIONS, type KeyInfo, type Permission, type Plan, type Site, type SiteRegistrar, type createOperators, RegistryRefusedError, RegistryUnavailableError } from '../sites/index.js';
import type { Accounts, Role } from '../accounts/index.js';

export interface SiteAdminDeps {
  operators: ReturnType<typeof createOperators>;
  accounts: Accounts;
  register: SiteRegistrar;
}

function adminStatus(err: unknown, method: string, log: Logger): Partial<grpc.StatusObject> {
  if (err instanceof OperatorNotFoundError) return refusalStatus(grpc.status.NOT_FOUND, err.message);
  if (err instanceof OperatorConflictError) return refusalStatus(grpc.status.ALREADY_EXISTS, err.message);
  if (err instanceof OperatorError || err instanceof ValidationError) return refusalStatus(grpc.status.INVALID_ARGUMENT, err.message);
  if (err instanceof RegistryUnavailableError) return refusalStatus(grpc.status.UNAVAILABLE, `${err.message}; nothing was stored: send the same call again`);
  if (err instanceof RegistryRefusedError) return refusalStatus(grpc.status.FAILED_PRECONDITION, err.message);
  if (isConnectionWaitTimeout(err)) return busyStatus(BUSY_RETRY_AFTER_SECONDS);
  log.error('unexpected error', { method, err: err instanceof Error ? err : new Error(String(err)) });
  return { code: grpc.status.INTERNAL, details: 'Internal error' };
}

function unary<Req, Res>(method: string, log: Logger, fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => callback(adminStatus(err, method, log)),
    );
  };
}

/** A field that must be given: proto3 answers "" for one left out. */
function required(value: string, name: string): string {
  if (value === '') throw new OperatorError(`${name} is required`);
  return value;
}

const plan = (p: Plan) => ({ id: p.id, name: p.name, permissions: p.permissions });
const site = (s: Site) => ({ id: s.id, name: s.name, publicId: s.publicId, plan: s.plan, createdAt: s.createdAt });
const key = (k: KeyInfo) => ({ keyId: k.keyId, label: k.label, prefix: k.prefix, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt ?? '', revokedAt: k.revokedAt ?? '' });

export function createSiteAdminHandlers(deps: SiteAdminDeps, log: Logger): SiteAdminHandlers {
  const { operators: ops, accounts } = deps;
  const siteOf = async (ref: string) => {
    const found = await ops.getSite(required(ref, 'site'));
    if (!found) throw new OperatorNotFoundError(`site "${ref}" does not exist`);
    return found;
  };
  return {
    CreatePlan: unary('CreatePlan', log, async (req) => {
      const bad = req.permissions.filter((p) => !PERMISSIONS.includes(p as Permission));
      if (bad.length > 0) throw new OperatorError(`unknown permission(s): ${bad.join(', ')} (known: ${PERMISSIONS.join(', ')})`);
      return plan(await ops.createPlan(req.name, req.permissions as Permission[]));
    }),
    ListPlans: unary('ListPlans', log, async () => ({ plans: (await ops.listPlans()).map(plan) })),
    CreateSite: unary('CreateSite', log, async (req) => {
      const created = await ops.createSite({ id: required(req.siteId, 'site_id'), name: req.name, plan: required(req.plan, 'plan') }, deps.register);
      return { site: site(created.site), apiKey: created.issued.key, keyId: created.issued.keyId, vapidPublicKey: created.vapidPublicKey };
    }),
    GetSite: unary('GetSite', log, async (req) => site(await siteOf(req.site))),
    ListSites: unary('ListSites', log, async () => ({ sites: (await ops.listSites()).map(site) })),
    ChangePlan: unary('ChangePlan', log, async (req) => site(await ops.changePlan((await siteOf(req.site)).id, required(req.plan, 'plan')))),
    SetThrottle: unary('SetThrottle', log, async (req) => {
      const changed = await ops.setThrottle((await siteOf(req.site)).id, req.perMinute ?? null);
      return { siteId: changed.id, defaultThrottlePerMinute: changed.defaultThrottlePerMinute ?? undefined };
    }),
    ListKeys: unary('ListKeys', log, async (req) => {
      const s = await siteOf(req.site);
      return { siteId: s.id, keys: (await ops.listKeys(s.id)).map(key) };
    }),
    IssueKey: unary('IssueKey', log, async (req) => {
      const s = await siteOf(req.site);
      const issued = await ops.issueKey(s.id, { revokeOthers: !req.keepOthers });
      return { siteId: s.id, apiKey: issued.key, keyId: issued.keyId, prefix: issued.prefix };
    }),
    RevokeKeys: unary('RevokeKeys', log, async (req) => {
      const s = await siteOf(req.site);
      return { siteId: s.id, revoked: await ops.revokeKeys(s.id, req.key === '' ? undefined : req.key) };
    }),
    InviteUser: unary('InviteUser', log, async (req) => {
      const s = await siteOf(req.site);
      const invite = await accounts.invite({ site: s.id, email: req.email, role: req.role as Role, baseUrl: baseUrl(req.baseUrl) });
      return { ...invite, siteName: s.name };
    }),
    ResetPasswordLink: unary('ResetPasswordLink', log, async (req) => accounts.resetLink({ email: req.email, baseUrl: baseUrl(req.baseUrl) })),
    ListUsers: unary('ListUsers', log, async (req) => {
      const { siteId, members } = await accounts.members((await siteOf(req.site)).id);
      return { siteId, users: members };
    }),
  };
}

/** The origin links are printed under: an http(s) origin, nothing else (it ends up in an email). */
function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(required(raw, 'base_url'));
  } catch {
    throw new OperatorError(`base_url "${raw}" is not a URL`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.username || url.password || url.search || url.hash) {
    throw new OperatorError(`base_url "${raw}" must be an http(s) origin such as https://push.example.net`);
  }
  return url.origin;
}
