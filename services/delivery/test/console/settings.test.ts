// The site's settings the console reads from the delivery service (delivery.v1.ConsoleData
// SiteSettings): the VAPID public key and the public id the plugin's URLs carry, as registered;
// a site this service does not know NOT_FOUND; the gateway's only.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { loadConsoleDataProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { INTERNAL_TOKENS } from '../../../../test/support/internal-tokens.js';
import { request, startTestDelivery, type TestDelivery } from '../support.js';
import { consoleCalls, refusal } from './calls.js';

describe("console data: the site's settings", function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let calls: ReturnType<typeof consoleCalls>;

  before(async () => {
    t = await startTestDelivery('console_settings');
    calls = consoleCalls(t.consoleData);
  });
  after(async () => {
    await t?.stop();
  });

  it('answers the VAPID public key and the public id the site was registered with, and its sending settings (none yet), each site its own', async () => {
    const a = { siteId: randomUUID(), publicId: 'pub_settings_a' };
    const b = { siteId: randomUUID(), publicId: 'pub_settings_b' };
    const keyA = (await t.operators.registerSite(a)).vapidPublicKey;
    const keyB = (await t.operators.registerSite(b)).vapidPublicKey;
    expect(keyA).to.not.equal(keyB);
    expect(await calls.settings(a.siteId)).to.deep.equal({ vapidPublicKey: keyA, publicId: a.publicId, frequencyCap: null, timeZone: 'UTC', quietHours: null });
    expect(await calls.settings(b.siteId.toUpperCase())).to.deep.equal({ vapidPublicKey: keyB, publicId: b.publicId, frequencyCap: null, timeZone: 'UTC', quietHours: null });
    // The key the plugin's public config answers is the same one.
    const config = await request(t, 'GET', `/public/v1/sites/${a.publicId}/config`);
    expect([config.status, (config.body as { vapidPublicKey: string }).vapidPublicKey]).to.deep.equal([200, keyA]);
  });

  it('answers NOT_FOUND "Site not found" for a site it does not know, or an id that is not a UUID', async () => {
    for (const siteId of [randomUUID(), 'not-a-site', '']) {
      expect(await refusal(calls.settings(siteId)), siteId).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
    }
  });

  it('answers the gateway only', async () => {
    const asCampaign = new (loadConsoleDataProto().delivery.v1.ConsoleData)(`127.0.0.1:${t.service.grpcPort}`, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN));
    try {
      const denied = await refusal(consoleCalls(asCampaign).settings(randomUUID()));
      expect(denied.code).to.equal(grpc.status.PERMISSION_DENIED);
    } finally {
      asCampaign.close();
    }
  });
});
