// Which format each push of a batch is sent in (src/sending/payloads.ts).
import { expect } from 'chai';
import { MAX_PUSH_PLAINTEXT_BYTES, pushPayloads, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { batchPayloads } from '../../src/sending/payloads.js';
import { clickUrls } from '../../src/tracking/click-url.js';

describe('delivery: each push\'s payload format', () => {
  const campaignId = '0b7e4c1e-5d0a-4f7e-9b1a-2c3d4e5f6a7b';
  const content: CampaignContent = {
    title: 'T', body: 'B', link: 'https://shop.example.org/', utmSource: '', utmMedium: '', utmCampaign: '', icon: null, image: null, callToAction: '',
  };
  const clickUrl = clickUrls('https://push.example.net');

  it('a subscriber whose browser shows declarative pushes gets the declarative message naming the redirect under PUBLIC_URL; every other one the worker\'s format', () => {
    const payloadOf = batchPayloads(campaignId, 5, clickUrl);
    const declarative = JSON.parse(payloadOf(content, true, 'tok'));
    expect(declarative).to.include({ web_push: 8030, mutable: true });
    expect(declarative.notification.navigate).to.equal('https://push.example.net/public/v1/r/tok');
    expect(payloadOf(content, false, 'tok')).to.equal(pushPayloads(campaignId, content, 5)('tok'));
  });

  it('without PUBLIC_URL nobody gets a declarative message (there is no public redirect to name)', () => {
    expect(batchPayloads(campaignId, 5, undefined)(content, true, 'tok')).to.equal(pushPayloads(campaignId, content, 5)('tok'));
  });

  it('a declarative message longer than one push can carry goes in the worker\'s format, which the create-time check guarantees fits', () => {
    // Two buttons and a body that leave the worker's format just inside the limit.
    const long: CampaignContent = { ...content, callToAction: 'Open', options: { actions: [{ title: 'More', link: 'https://shop.example.org/m' }], badge: null, requireInteraction: false, renotify: false, silent: false, vibrate: [], timestamp: null, dir: 'auto', lang: '' } };
    const room = MAX_PUSH_PLAINTEXT_BYTES - Buffer.byteLength(pushPayloads(campaignId, long, 5)('x'.repeat(54)));
    const full = { ...long, body: 'B' + 'b'.repeat(room) };
    const worker = pushPayloads(campaignId, full, 5)('x'.repeat(54));
    expect(Buffer.byteLength(worker)).to.equal(MAX_PUSH_PLAINTEXT_BYTES);
    expect(batchPayloads(campaignId, 5, clickUrl)(full, true, 'x'.repeat(54))).to.equal(worker);
  });
});
