// Services authenticate each other: the Audience API answers only the callers it serves, each
// with its own token; the health service stays open to probes.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import fc from 'fast-check';
import type { AudienceClient } from '@webpush/contracts/generated/delivery/v1/Audience.js';
import { healthStatus } from '../../../test/support/grpc-health.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { loadAudienceProto } from '@webpush/shared/grpc.js';
import { UNAUTHENTICATED_MESSAGE, withInternalToken } from '@webpush/shared/internal-auth.js';
import { countAudience, listTopics, newSite, startTestDelivery, type TestDelivery } from './support.js';

type Call = 'CountAudience' | 'ListTopics' | 'ListCountries';

describe('delivery: internal authentication of gRPC calls', () => {
  let t: TestDelivery;
  let siteId: string;
  const clients: AudienceClient[] = [];

  before(async () => {
    t = await startTestDelivery('delivery_internal_auth');
    siteId = (await newSite(t)).siteId;
  });

  after(async () => {
    for (const c of clients) c.close();
    await t?.stop();
  });

  const clientWith = (token?: string): AudienceClient => {
    const { Audience } = loadAudienceProto().delivery.v1;
    const target = `127.0.0.1:${t.service.grpcPort}`;
    const client = token === undefined ? new Audience(target, grpc.credentials.createInsecure()) : new Audience(target, grpc.credentials.createInsecure(), withInternalToken(token));
    clients.push(client);
    return client;
  };

  const outcome = (client: AudienceClient, method: Call): Promise<string> =>
    new Promise((resolve) => {
      const req = method === 'CountAudience' ? { siteId, topics: ['news'], countries: [] } : { siteId };
      const fn = client[method] as unknown as (req: object, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null) => void) => void;
      fn.call(client, req, { deadline: Date.now() + 5000 }, (err) => resolve(err ? `${err.code} ${err.details}` : 'ok'));
    });

  const denied = `${grpc.status.PERMISSION_DENIED} ${UNAUTHENTICATED_MESSAGE}`;

  it('when a call carries no token, then every Audience method is refused', async () => {
    const anonymous = clientWith();
    for (const m of ['CountAudience', 'ListTopics', 'ListCountries'] as const) expect(await outcome(anonymous, m), m).to.equal(denied);
  });

  it('when a caller uses a method it is not allowed, then it is refused (campaign lists, gateway counts)', async () => {
    const campaign = clientWith(INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN);
    const gateway = clientWith(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN);
    expect(await outcome(campaign, 'CountAudience')).to.equal('ok');
    expect(await outcome(campaign, 'ListTopics')).to.equal(denied);
    expect(await outcome(campaign, 'ListCountries')).to.equal(denied);
    expect(await outcome(gateway, 'ListTopics')).to.equal('ok');
    expect(await outcome(gateway, 'ListCountries')).to.equal('ok');
    expect(await outcome(gateway, 'CountAudience')).to.equal(denied);
    expect(await countAudience(t, siteId, ['news'], [])).to.equal(0);
    expect(await listTopics(t, siteId)).to.deep.equal([]);
  });

  it('property: any other token (near misses included) is refused', async () => {
    const real = INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 80 }).filter((s) => /^[\x20-\x7e]+$/.test(s) && s.trim() === s),
          fc.nat({ max: real.length - 1 }).map((i) => real.slice(0, i) + (real[i] === 'A' ? 'B' : 'A') + real.slice(i + 1)),
          fc.constant(real.slice(0, -1)),
          fc.constant(real + 'A'),
        ),
        async (token) => {
          if (token === real) return;
          expect(await outcome(clientWith(token), 'ListTopics')).to.equal(denied);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('when a probe asks the health service without a token, then it answers', async () => {
    expect(await healthStatus(`127.0.0.1:${t.service.grpcPort}`, '')).to.equal('SERVING');
  });
});
