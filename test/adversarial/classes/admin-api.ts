// Class 12: the operators' admin APIs (campaign.v1.SiteAdmin, delivery.v1.SiteRegistry), called
// straight over gRPC as an insider would. Without the operators' token (none, a random one,
// another caller's) every method is refused PERMISSION_DENIED and changes nothing; the delivery
// service's RegisterSite is the campaign service's alone. With the token, hostile fields get a
// refusal that says what is wrong (INVALID_ARGUMENT, or NOT_FOUND/ALREADY_EXISTS for names),
// never INTERNAL, and the processes keep serving.
import { randomBytes, randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import fc from 'fast-check';
import { loadSiteAdminProto, loadSiteRegistryProto } from '@webpush/shared/grpc.js';
import { INTERNAL_AUTH_HEADER, UNAUTHENTICATED_MESSAGE } from '@webpush/shared/internal-auth.js';
import { hostileString } from '../support/hostile.js';
import { fuzz } from '../support/probe.js';
import { assertNoViolations, checkAlive, endOfClassChecks, getCtx, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_ADMIN = '12 operators\' admin APIs';
const cls = CLASS_ADMIN;

interface Outcome {
  code: grpc.status;
  details: string;
}

function unary(client: grpc.Client, method: string, req: unknown, token: string | undefined): Promise<Outcome> {
  const metadata = new grpc.Metadata();
  if (token !== undefined) metadata.set(INTERNAL_AUTH_HEADER, token);
  return new Promise((resolve) => {
    const fn = (client as unknown as Record<string, Function>)[method];
    fn.call(client, req, metadata, { deadline: Date.now() + 10_000 }, (err: grpc.ServiceError | null) => resolve(err ? { code: err.code, details: err.details } : { code: grpc.status.OK, details: '' }));
  });
}

/** What a hostile but authenticated call may answer: done, or refused with a reason. */
const REASONED = [grpc.status.INVALID_ARGUMENT, grpc.status.NOT_FOUND, grpc.status.ALREADY_EXISTS, grpc.status.FAILED_PRECONDITION];

const int32 = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, 1, 720, 721, 1000, 1001, 1_000_000, 2 ** 31 - 1));

export function registerAdminApi(): void {
  describe(CLASS_ADMIN, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let admin: grpc.Client;
    let registry: grpc.Client;
    let operatorToken: string;

    before(() => {
      const { stack } = getCtx();
      const creds = grpc.credentials.createInsecure();
      admin = new (loadSiteAdminProto().campaign.v1.SiteAdmin)(`127.0.0.1:${stack.services.ports.campaignGrpc}`, creds);
      registry = new (loadSiteRegistryProto().delivery.v1.SiteRegistry)(`127.0.0.1:${stack.services.ports.deliveryGrpc}`, creds);
      operatorToken = stack.services.env.campaign.OPERATOR_INTERNAL_TOKEN;
    });
    after(() => {
      admin?.close();
      registry?.close();
    });

    it('without the operators\' token → PERMISSION_DENIED, nothing changed; RegisterSite only for the campaign service; with it → served (control)', async () => {
      const { stack, sites, db } = getCtx();
      const env = stack.services.env;
      const siteId = randomUUID();
      const calls: [string, grpc.Client, string, unknown][] = [
        ['SiteAdmin CreatePlan', admin, 'CreatePlan', { name: `forged_${siteId}`, permissions: ['create'] }],
        ['SiteAdmin ListSites', admin, 'ListSites', {}],
        ['SiteAdmin CreateSite', admin, 'CreateSite', { siteId, name: 'forged', plan: 'x' }],
        ['SiteAdmin IssueKey', admin, 'IssueKey', { site: sites.fuzz.id, keepOthers: true }],
        ['SiteAdmin RevokeKeys', admin, 'RevokeKeys', { site: sites.other.id, key: '' }],
        ['SiteAdmin InviteUser', admin, 'InviteUser', { site: sites.other.id, email: 'mallory@example.com', role: 'owner', baseUrl: 'https://evil.example' }],
        ['SiteRegistry SetFrequencyCap', registry, 'SetFrequencyCap', { site: sites.other.id, cap: { campaigns: 1, hours: 720 } }],
        ['SiteRegistry SetTimeZone', registry, 'SetTimeZone', { site: sites.other.id, timeZone: 'Pacific/Kiritimati' }],
      ];
      const tokens: [string, string | undefined][] = [
        ['no token', undefined],
        ['empty token', ''],
        ['random token', randomBytes(32).toString('base64')],
        ['operator token + one character', `${operatorToken}x`],
        ['gateway token', env.gateway.GATEWAY_INTERNAL_TOKEN],
        ['campaign token', env.campaign.CAMPAIGN_INTERNAL_TOKEN],
      ];
      const state = async () =>
        JSON.stringify(
          (
            await db.query(
              `SELECT (SELECT count(*) FROM campaign.plans) AS plans, (SELECT count(*) FROM campaign.sites) AS sites,
                      (SELECT count(*) FROM campaign.api_keys WHERE revoked_at IS NULL) AS keys, (SELECT count(*) FROM campaign.one_time_links) AS links,
                      (SELECT string_agg(coalesce(cap_campaigns::text, '-') || coalesce(time_zone, '-'), ',' ORDER BY site_id) FROM delivery.sites) AS settings`,
            )
          ).rows,
        );
      const before = await state();
      for (const [label, client, method, req] of calls) {
        for (const [tokenLabel, token] of tokens) {
          // The campaign service's token is the one RegisterSite takes, not these.
          const out = await unary(client, method, req, token);
          if (out.code === grpc.status.PERMISSION_DENIED && out.details === UNAUTHENTICATED_MESSAGE) getCtx().tally.other(cls, 'closed');
          else {
            getCtx().tally.other(cls, out.code === grpc.status.OK ? 'ok' : 'c4xx');
            violation(cls, `${label} with ${tokenLabel}: not refused (${grpc.status[out.code]} ${out.details})`);
          }
        }
      }
      for (const [tokenLabel, token] of [['operator token', operatorToken], ['gateway token', env.gateway.GATEWAY_INTERNAL_TOKEN], ['no token', undefined]] as const) {
        const out = await unary(registry, 'RegisterSite', { siteId, publicId: 'pub_forged' }, token);
        getCtx().tally.other(cls, out.code === grpc.status.PERMISSION_DENIED ? 'closed' : 'c4xx');
        if (out.code !== grpc.status.PERMISSION_DENIED) violation(cls, `RegisterSite with ${tokenLabel}: not refused (${grpc.status[out.code]} ${out.details})`);
      }
      if ((await state()) !== before) violation(cls, 'refused admin calls changed stored plans, sites, keys, links or settings');
      // Controls: the operators' token is served.
      for (const [label, client, method, req] of [
        ['SiteAdmin ListPlans', admin, 'ListPlans', {}],
        ['SiteAdmin GetSite', admin, 'GetSite', { site: sites.other.publicId }],
        ['SiteRegistry SetTimeZone', registry, 'SetTimeZone', { site: sites.fuzz.id, timeZone: 'UTC' }],
      ] as const) {
        const out = await unary(client, method, req, operatorToken);
        getCtx().tally.other(cls, out.code === grpc.status.OK ? 'ok' : 'c4xx');
        if (out.code !== grpc.status.OK) violation(cls, `control ${label} with the operators' token: ${grpc.status[out.code]} ${out.details}`);
      }
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it('bad fields with the token → INVALID_ARGUMENT saying which field and why', async () => {
      const { sites } = getCtx();
      const cases: [string, grpc.Client, string, unknown, grpc.status, string][] = [
        ['site id not a UUID', admin, 'CreateSite', { siteId: 'x', name: 'n', plan: 'p' }, grpc.status.INVALID_ARGUMENT, 'site id "x" is not a UUID'],
        ['no site id', admin, 'CreateSite', { name: 'n', plan: 'p' }, grpc.status.INVALID_ARGUMENT, 'site_id is required'],
        ['empty name', admin, 'CreateSite', { siteId: randomUUID(), name: ' ', plan: 'p' }, grpc.status.INVALID_ARGUMENT, 'site name must not be empty'],
        ['10 kB name', admin, 'CreateSite', { siteId: randomUUID(), name: 'n'.repeat(10_000), plan: 'p' }, grpc.status.INVALID_ARGUMENT, 'site name must be at most 200 characters'],
        ['control characters', admin, 'CreatePlan', { name: 'a\u0007b', permissions: [] }, grpc.status.INVALID_ARGUMENT, 'plan name must not contain control characters'],
        ['unknown permission', admin, 'CreatePlan', { name: 'p', permissions: ['teleport'] }, grpc.status.INVALID_ARGUMENT, 'unknown permission(s): teleport'],
        ['unknown plan', admin, 'CreateSite', { siteId: randomUUID(), name: 'n', plan: 'no-such-plan' }, grpc.status.NOT_FOUND, 'plan "no-such-plan" does not exist'],
        ['negative throttle', admin, 'SetThrottle', { site: sites.fuzz.id, perMinute: -5 }, grpc.status.INVALID_ARGUMENT, 'the pushes per minute must be a whole number from 1 to'],
        ['no site', admin, 'SetThrottle', { perMinute: 5 }, grpc.status.INVALID_ARGUMENT, 'site is required'],
        ['role', admin, 'InviteUser', { site: sites.fuzz.id, email: 'a@example.com', role: 'admin', baseUrl: 'https://push.example.net' }, grpc.status.INVALID_ARGUMENT, 'role must be owner, editor or viewer'],
        ['script URL', admin, 'InviteUser', { site: sites.fuzz.id, email: 'a@example.com', role: 'owner', baseUrl: 'javascript:alert(1)' }, grpc.status.INVALID_ARGUMENT, 'must be an http(s) origin'],
        ['URL with a path', admin, 'ResetPasswordLink', { email: 'a@example.com', baseUrl: 'https://push.example.net/x?y' }, grpc.status.INVALID_ARGUMENT, 'must be an http(s) origin'],
        ['email', admin, 'InviteUser', { site: sites.fuzz.id, email: 'no at sign', role: 'owner', baseUrl: 'https://push.example.net' }, grpc.status.INVALID_ARGUMENT, 'is not an email address'],
        ['cap of 0', registry, 'SetFrequencyCap', { site: sites.fuzz.id, cap: { campaigns: 0, hours: 24 } }, grpc.status.INVALID_ARGUMENT, 'the campaigns of a frequency cap must be a whole number from 1 to 1000'],
        ['cap over 30 days', registry, 'SetFrequencyCap', { site: sites.fuzz.id, cap: { campaigns: 1, hours: 721 } }, grpc.status.INVALID_ARGUMENT, 'the hours of a frequency cap must be a whole number from 1 to 720'],
        ['zone', registry, 'SetTimeZone', { site: sites.fuzz.id, timeZone: 'Mars/Olympus_Mons' }, grpc.status.INVALID_ARGUMENT, 'unknown time zone "Mars/Olympus_Mons"'],
        ['unknown site', registry, 'SetTimeZone', { site: 'pub_nope', timeZone: 'UTC' }, grpc.status.NOT_FOUND, 'site "pub_nope" does not exist'],
      ];
      for (const [label, client, method, req, code, message] of cases) {
        const out = await unary(client, method, req, operatorToken);
        getCtx().tally.other(cls, out.code === grpc.status.OK ? 'ok' : 'c4xx');
        if (out.code !== code || !out.details.includes(message)) violation(cls, `${method} ${label}: ${grpc.status[out.code]} ${show(out.details)}, expected ${grpc.status[code]} with ${show(message)}`);
      }
      assertNoViolations(cls);
    });

    it('hostile fields with the token → done or refused with a reason, never INTERNAL; every process still serves', async () => {
      const { sites, db, stack } = getCtx();
      const siteRef = fc.oneof(fc.constant(sites.fuzz.id), fc.constant(sites.fuzz.publicId), hostileString);
      // ChangePlan may move the fuzzed site to a plan the fuzzer made; it goes back to its own
      // after, for the classes after this one that call /v2 with its key.
      const plan = (await db.query<{ name: string }>('SELECT p.name FROM campaign.sites s JOIN campaign.plans p ON p.id = s.plan_id WHERE s.id = $1', [sites.fuzz.id])).rows[0].name;
      const call = fc.oneof(
        fc.record({ m: fc.constant('CreateSite'), req: fc.record({ siteId: fc.oneof(fc.uuid(), hostileString), name: hostileString, plan: fc.oneof(fc.constant('no-such-plan'), hostileString) }) }),
        fc.record({ m: fc.constant('CreatePlan'), req: fc.record({ name: hostileString, permissions: fc.array(hostileString, { maxLength: 4 }) }) }),
        fc.record({ m: fc.constant('SetThrottle'), req: fc.record({ site: siteRef, perMinute: fc.option(int32, { nil: undefined }) }) }),
        fc.record({ m: fc.constant('ChangePlan'), req: fc.record({ site: siteRef, plan: hostileString }) }),
        fc.record({ m: fc.constant('RevokeKeys'), req: fc.record({ site: hostileString, key: hostileString }) }),
        fc.record({ m: fc.constant('InviteUser'), req: fc.record({ site: siteRef, email: hostileString, role: fc.oneof(fc.constant('editor'), hostileString), baseUrl: hostileString }) }),
        fc.record({ m: fc.constant('SetFrequencyCap'), req: fc.record({ site: siteRef, cap: fc.option(fc.record({ campaigns: int32, hours: int32 }), { nil: null }) }) }),
        fc.record({ m: fc.constant('SetTimeZone'), req: fc.record({ site: siteRef, timeZone: fc.option(hostileString, { nil: undefined }) }) }),
      );
      await fuzz(call, { numRuns: 300, timeMs: 20_000, seedOffset: 30 }, async ({ m, req }) => {
        const client = m === 'SetFrequencyCap' || m === 'SetTimeZone' ? registry : admin;
        const out = await unary(client, m, req, operatorToken);
        getCtx().tally.other(cls, out.code === grpc.status.OK ? 'ok' : 'c4xx');
        if (out.code !== grpc.status.OK && (!REASONED.includes(out.code) || out.details.trim() === '')) violation(cls, `${m} ${show(req)}: ${grpc.status[out.code]} ${show(out.details)}`);
      });
      await stack.cli('sites', 'set-plan', sites.fuzz.id, plan);
      await checkAlive(cls, 'hostile admin calls');
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
