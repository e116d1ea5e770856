// Services authenticate each other: the campaign service serves only the gateway. Without its
// token, nobody can read or create another site's campaigns by naming a siteId.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CampaignServiceClient } from '@webpush/contracts/generated/campaign/v1/CampaignService.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { loadCampaignProto } from '@webpush/shared/grpc.js';
import { UNAUTHENTICATED_MESSAGE, withInternalToken } from '@webpush/shared/internal-auth.js';
import { startHarness, validCampaign, type Harness } from './support/harness.js';

describe('campaign service: internal authentication', () => {
  let h: Harness;
  let site: { siteId: string; key: string };
  let port: number;
  const clients: CampaignServiceClient[] = [];

  before(async () => {
    h = await startHarness('campaign_internal_auth');
    site = await h.newSite();
    port = (await h.startInstance()).grpcPort;
  });

  after(async () => {
    for (const c of clients) c.close();
    await h?.stop();
  });

  const clientWith = (token?: string): CampaignServiceClient => {
    const { CampaignService } = loadCampaignProto().campaign.v1;
    const target = `127.0.0.1:${port}`;
    const client = token === undefined ? new CampaignService(target, grpc.credentials.createInsecure()) : new CampaignService(target, grpc.credentials.createInsecure(), withInternalToken(token));
    clients.push(client);
    return client;
  };

  const outcome = (client: CampaignServiceClient, method: 'ListCampaigns' | 'CreateCampaign' | 'Authenticate', req: object): Promise<string> =>
    new Promise((resolve) => {
      const fn = client[method] as unknown as (req: object, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null) => void) => void;
      fn.call(client, req, { deadline: Date.now() + 5000 }, (err) => resolve(err ? `${err.code} ${err.details}` : 'ok'));
    });

  const denied = `${grpc.status.PERMISSION_DENIED} ${UNAUTHENTICATED_MESSAGE}`;

  it('when a call carries no token or another service\'s token, then it is refused and nothing is created', async () => {
    const before = Number((await h.pool.query('SELECT count(*) FROM campaign.campaigns')).rows[0].count);
    for (const client of [clientWith(), clientWith(INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN), clientWith('x'.repeat(44))]) {
      expect(await outcome(client, 'ListCampaigns', { siteId: site.siteId, bodyJson: '{}' })).to.equal(denied);
      expect(await outcome(client, 'CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(validCampaign()), idempotencyKey: '' })).to.equal(denied);
      expect(await outcome(client, 'Authenticate', { keyHash: '0'.repeat(64) })).to.equal(denied);
    }
    expect(Number((await h.pool.query('SELECT count(*) FROM campaign.campaigns')).rows[0].count)).to.equal(before);
  });

  it('when the gateway calls with its token, then the call is served', async () => {
    expect(await outcome(clientWith(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN), 'ListCampaigns', { siteId: site.siteId, bodyJson: '{}' })).to.equal('ok');
  });
});
