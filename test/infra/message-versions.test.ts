// The dispatch message's versions: version 2 nests the campaign's content; version 1 (the
// fields flat, as producers before it wrote them and delivery stored them in its runs) is still
// read, each against its own schema, and arrives as version 2. This release still WRITES
// version 1, which the previous release's delivery reads during a rolling upgrade.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { CAMPAIGN_CONTENT_FIELDS, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { createCodecs, dispatchForWire, upgradeDispatch, type DispatchMessage, type DispatchMessageV1 } from '@webpush/contracts/messages.js';

const codecs = createCodecs();
const content = fc.record<CampaignContent>({
  title: fc.string(),
  body: fc.string(),
  link: fc.webUrl(),
  utmSource: fc.string(),
  utmMedium: fc.string(),
  utmCampaign: fc.string(),
  icon: fc.option(fc.webUrl(), { nil: null }),
  image: fc.option(fc.webUrl(), { nil: null }),
  callToAction: fc.string(),
});

function v2(c: CampaignContent): DispatchMessage {
  return { type: 'campaign.dispatch', version: 2, campaignId: randomUUID(), siteId: randomUUID(), dispatchedAt: new Date().toISOString(), content: c, ttl: 60, audience: ['news'] };
}

function v1Of(m: DispatchMessage): DispatchMessageV1 {
  const { content: c, ...rest } = m;
  return { ...rest, version: 1, ...c };
}

describe('dispatch message versions', () => {
  it('property: a message round-trips through its codec unchanged, written as version 1 (the previous release reads it)', () =>
    fc.assert(fc.property(content, (c) => {
      const m = v2(c);
      const wire = codecs.dispatch.encode(m);
      expect(JSON.parse(wire.toString('utf8'))).to.deep.equal(v1Of(m));
      expect(dispatchForWire(m)).to.deep.equal(v1Of(m));
      expect(codecs.dispatch.decode(wire)).to.deep.equal(m);
    })));

  it('property: a version 2 message (as the next release writes it) is read unchanged', () =>
    fc.assert(fc.property(content, (c) => {
      const m = v2(c);
      expect(codecs.dispatch.decode(Buffer.from(JSON.stringify(m)))).to.deep.equal(m);
    })));

  it('property: a version 1 message is read as the version 2 message with the same content', () =>
    fc.assert(fc.property(content, (c) => {
      const m = v2(c);
      const old = Buffer.from(JSON.stringify(v1Of(m)));
      expect(codecs.dispatch.decode(old)).to.deep.equal(m);
      expect(upgradeDispatch(v1Of(m))).to.deep.equal(m);
    })));

  it('when a version 1 message lacks a content field, or a version 2 message its content, then it is refused with the reason', () => {
    const m = v2({ title: 'T', body: 'B', link: 'https://x.example/', utmSource: '', utmMedium: '', utmCampaign: '', icon: null, image: null, callToAction: '' });
    for (const field of CAMPAIGN_CONTENT_FIELDS) {
      const old: Record<string, unknown> = { ...v1Of(m) };
      delete old[field];
      expect(() => codecs.dispatch.decode(Buffer.from(JSON.stringify(old)))).to.throw(`must have required property '${field}'`);
    }
    const { content: _dropped, ...bare } = m;
    expect(() => codecs.dispatch.decode(Buffer.from(JSON.stringify(bare)))).to.throw("must have required property 'content'");
    expect(() => codecs.dispatch.decode(Buffer.from(JSON.stringify({ ...m, version: 3 })))).to.throw('/version must be equal to constant');
  });
});
