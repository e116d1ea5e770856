// Class 7: internal calls without credentials. The campaign service's gRPC and the delivery
// service's Audience gRPC refuse calls without the caller's token (or with another caller's),
// and the delivery service's HTTP port refuses requests that do not carry the gateway's token,
// whatever x-client-* headers they forge. Controls with the right tokens prove the probes work.
import { createHash, randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { loadAudienceProto, loadCampaignProto } from '@webpush/shared/grpc.js';
import { INTERNAL_AUTH_HEADER } from '@webpush/shared/internal-auth.js';
import type { HeaderList } from '../support/http.js';
import { probe } from '../support/probe.js';
import { assertNoViolations, trackViolations, endOfClassChecks, getCtx, jsonRequest, sameSnapshot, snapshot, validSubscription, violation } from '../support/suite.js';

export const CLASS_INTERNAL = '7 internal calls w/o credentials';
const cls = CLASS_INTERNAL;

interface Outcome {
  code: number;
  details: string;
}

function unary(client: grpc.Client, method: string, req: unknown, metadata: grpc.Metadata): Promise<Outcome> {
  return new Promise((resolve) => {
    const fn = (client as unknown as Record<string, Function>)[method];
    fn.call(client, req, metadata, { deadline: Date.now() + 5000 }, (err: grpc.ServiceError | null) => resolve(err ? { code: err.code, details: err.details } : { code: grpc.status.OK, details: '' }));
  });
}

const REFUSED = [grpc.status.PERMISSION_DENIED, grpc.status.UNAUTHENTICATED];

export function registerInternal(): void {
  describe(CLASS_INTERNAL, function () {
    this.timeout(60_000);
    trackViolations(cls);

    it('gRPC to the campaign and delivery services without the caller token → refused; with it → served (control)', async () => {
      const { stack, sites, tally } = getCtx();
      const env = stack.services.env;
      const gatewayToken = env.gateway.GATEWAY_INTERNAL_TOKEN;
      const campaignToken = env.campaign.CAMPAIGN_INTERNAL_TOKEN;
      const ports = stack.services.ports;
      const creds = grpc.credentials.createInsecure();
      const campaign = new (loadCampaignProto().campaign.v1.CampaignService)(`127.0.0.1:${ports.campaignGrpc}`, creds);
      const audience = new (loadAudienceProto().delivery.v1.Audience)(`127.0.0.1:${ports.deliveryGrpc}`, creds);
      try {
        // A campaign the delete probe aims at.
        const made = await probe(cls, jsonRequest('POST', '/v2/campaign/create', { title: 'Internal probe', body: 'Must survive unauthenticated deletes', link: 'https://shop.example/', topics: ['news'], status: 'draft', scheduleMode: 'now' }, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200], what: '(setup)' });
        const victimId = String(made.body?.id);
        const keyHash = createHash('sha256').update(sites.fuzz.apiKey).digest('hex');
        const draft = JSON.stringify({ title: 'Forged by an insider', body: 'Created without credentials', link: 'https://evil.example/', topics: ['news'], status: 'published', scheduleMode: 'now' });

        const credentials: [string, (m: grpc.Metadata) => void][] = [
          ['no token', () => {}],
          ['empty token', (m) => m.set(INTERNAL_AUTH_HEADER, '')],
          ['random token', (m) => m.set(INTERNAL_AUTH_HEADER, randomBytes(32).toString('base64'))],
          ['gateway token + one character', (m) => m.set(INTERNAL_AUTH_HEADER, `${gatewayToken}x`)],
          ['Bearer + gateway token', (m) => m.set(INTERNAL_AUTH_HEADER, `Bearer ${gatewayToken}`)],
          ['gateway token in authorization', (m) => m.set('authorization', gatewayToken)],
          ['10 kB token', (m) => m.set(INTERNAL_AUTH_HEADER, 'a'.repeat(10_000))],
        ];
        const calls: [string, grpc.Client, string, unknown, string | undefined][] = [
          // [label, client, method, request, the caller whose token IS allowed]
          ['campaign Authenticate', campaign, 'Authenticate', { keyHash }, 'gateway'],
          ['campaign CreateCampaign', campaign, 'CreateCampaign', { siteId: sites.fuzz.id, bodyJson: draft, idempotencyKey: '' }, 'gateway'],
          ['campaign ListCampaigns', campaign, 'ListCampaigns', { siteId: sites.other.id, bodyJson: '{}' }, 'gateway'],
          ['campaign GetCampaign', campaign, 'GetCampaign', { siteId: sites.other.id, campaignId: getCtx().sites.otherCampaignId }, 'gateway'],
          ['campaign DeleteCampaign', campaign, 'DeleteCampaign', { siteId: sites.fuzz.id, campaignId: victimId }, 'gateway'],
          ['delivery ListTopics', audience, 'ListTopics', { siteId: sites.other.id }, 'gateway'],
          ['delivery ListCountries', audience, 'ListCountries', { siteId: sites.other.id }, 'gateway'],
          ['delivery CountAudience', audience, 'CountAudience', { siteId: sites.other.id, topics: ['news'], countries: [] }, 'campaign'],
        ];
        const before = await snapshot(sites.fuzz.id);
        for (const [label, client, method, req, allowedCaller] of calls) {
          const wrongCaller = allowedCaller === 'gateway' ? ['campaign token (another caller)', campaignToken] : ['gateway token (another caller)', gatewayToken];
          for (const [credLabel, set] of [...credentials, [wrongCaller[0], (m: grpc.Metadata) => m.set(INTERNAL_AUTH_HEADER, wrongCaller[1])] as [string, (m: grpc.Metadata) => void]]) {
            const m = new grpc.Metadata();
            set(m);
            const out = await unary(client, method, req, m);
            if (REFUSED.includes(out.code)) tally.other(cls, 'closed');
            else {
              tally.other(cls, out.code === grpc.status.OK ? 'ok' : 'c4xx');
              violation(cls, `${label} with ${credLabel}: not refused (code ${grpc.status[out.code]} ${out.details})`);
            }
          }
        }
        if (!sameSnapshot(before, await snapshot(sites.fuzz.id))) violation(cls, 'unauthenticated gRPC calls changed stored campaigns');
        // Controls: the right caller's token is served.
        for (const [label, client, method, req, token] of [
          ['campaign ListCampaigns', campaign, 'ListCampaigns', { siteId: sites.other.id, bodyJson: '{}' }, gatewayToken],
          ['delivery ListTopics', audience, 'ListTopics', { siteId: sites.other.id }, gatewayToken],
          ['delivery CountAudience', audience, 'CountAudience', { siteId: sites.other.id, topics: ['news'], countries: [] }, campaignToken],
        ] as const) {
          const m = new grpc.Metadata();
          m.set(INTERNAL_AUTH_HEADER, token);
          const out = await unary(client as grpc.Client, method, req, m);
          tally.other(cls, out.code === grpc.status.OK ? 'ok' : 'c4xx');
          if (out.code !== grpc.status.OK) violation(cls, `control ${label} with the right token: code ${grpc.status[out.code]} ${out.details}`);
        }
      } finally {
        campaign.close();
        audience.close();
      }
      assertNoViolations(cls);
    });

    it('HTTP straight to the delivery service without the gateway token → 401, forged x-client-* headers change nothing', async () => {
      const { stack, sites, db } = getCtx();
      const port = stack.services.ports.deliveryHttp;
      const pub = sites.fuzz.publicId;
      const sub = validSubscription('direct');
      const forged: HeaderList = [
        ['x-client-address', '203.0.113.9'],
        ['x-client-country', 'FR'],
        ['cf-ipcountry', 'FR'],
        ['X-Forwarded-For', '203.0.113.10'],
      ];
      const routes: [string, string, unknown][] = [
        ['POST', `/public/v1/sites/${pub}/subscriptions`, { subscription: sub, topics: ['direct'] }],
        ['DELETE', `/public/v1/sites/${pub}/subscriptions`, { endpoint: sub.endpoint }],
        ['POST', `/public/v1/sites/${pub}/pageviews`, { endpoint: sub.endpoint, topics: ['direct'] }],
        ['POST', `/public/v1/sites/${pub}/subscription-changes`, { oldEndpoint: sub.endpoint, endpoint: `${sub.endpoint}-2` }],
        ['POST', '/public/v1/events', { type: 'click', token: 'A'.repeat(54) }],
        ['GET', `/public/v1/r/${'A'.repeat(54)}`, undefined],
        ['GET', `/public/v1/sites/${pub}/config`, undefined],
        ['GET', '/public/v1/webpush.js', undefined],
        ['GET', '/public/v1/webpush-sw.js', undefined],
      ];
      const tokens: [string, HeaderList][] = [
        ['no token', []],
        ['random token', [[INTERNAL_AUTH_HEADER, randomBytes(32).toString('base64')]]],
        ['campaign token (not an HTTP caller)', [[INTERNAL_AUTH_HEADER, stack.services.env.campaign.CAMPAIGN_INTERNAL_TOKEN]]],
        ['empty token', [[INTERNAL_AUTH_HEADER, '']]],
      ];
      for (const [tokenLabel, tokenHeaders] of tokens) {
        for (const [method, path, body] of routes) {
          const spec = body === undefined ? { method, path, headers: [...forged, ...tokenHeaders] } : jsonRequest(method, path, body, undefined, [...forged, ...tokenHeaders]);
          const r = await probe(cls, spec, { siteId: sites.fuzz.id, port, allowed: [401], what: `direct, ${tokenLabel}` });
          if (r.status === 401 && r.result.responses[0]?.headers['content-type']?.startsWith('application/json') !== true) violation(cls, `${method} ${path} direct: 401 is not JSON`);
        }
      }
      const { rows } = await db.query('SELECT 1 FROM delivery.subscribers WHERE endpoint LIKE $1', [`${sub.endpoint}%`]);
      if (rows.length > 0) violation(cls, 'a direct subscribe without the gateway token was stored');
      // Control: the gateway's token is served.
      const control = await probe(cls, { method: 'GET', path: `/public/v1/sites/${pub}/config`, headers: [[INTERNAL_AUTH_HEADER, stack.services.env.gateway.GATEWAY_INTERNAL_TOKEN]] }, { siteId: sites.fuzz.id, port, allowed: [200], what: 'direct with the gateway token (control)' });
      if (control.status !== 200) violation(cls, `control: the gateway's token got ${control.status}`);
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
