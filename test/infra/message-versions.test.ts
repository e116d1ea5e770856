// The dispatch message's versions: version 2 nests the campaign's content; version 1 (the
// fields flat, as producers before it wrote them and delivery stored them in its runs) is still
// read, each against its own schema, and arrives as version 2. This release still WRITES
// version 1, which the previous release's delivery reads during a rolling upgrade.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { REQUIRED_CONTENT_FIELDS, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { createCodecs, dispatchForWire, upgradeDispatch, type DispatchMessage, type DispatchMessageV1 } from '@webpush/contracts/messages.js';

const codecs = createCodecs();
const content: fc.Arbitrary<CampaignContent> = fc.record({
  title: fc.string(),
  body: fc.string(),
  link: fc.webUrl(),
  utmSource: fc.string(),
  utmMedium: fc.string(),
  utmCampaign: fc.string(),
  icon: fc.option(fc.webUrl(), { nil: null }),
  image: fc.option(fc.webUrl(), { nil: null }),
  callToAction: fc.string(),
  // Added 2026-12-05: absent in what earlier releases wrote, null for a campaign without.
  options: fc.option(
    fc.record({
      actions: fc.array(fc.record({ title: fc.string(), link: fc.webUrl() }), { maxLength: 2 }),
      badge: fc.option(fc.webUrl(), { nil: null }),
      requireInteraction: fc.boolean(),
      renotify: fc.boolean(),
      silent: fc.boolean(),
      vibrate: fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 10 }),
      timestamp: fc.option(fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19) + 'Z'), { nil: null }),
      dir: fc.constantFrom('auto' as const, 'ltr' as const, 'rtl' as const),
      lang: fc.constantFrom('', 'pt-BR', 'en'),
    }),
    { nil: null },
  ),
}, { requiredKeys: ['title', 'body', 'link', 'utmSource', 'utmMedium', 'utmCampaign', 'icon', 'image', 'callToAction'] });
const urgency = fc.option(fc.constantFrom('very-low' as const, 'low' as const, 'high' as const), { nil: undefined });

function v2(c: CampaignContent, u?: DispatchMessage['urgency']): DispatchMessage {
  const m: DispatchMessage = { type: 'campaign.dispatch', version: 2, campaignId: randomUUID(), siteId: randomUUID(), dispatchedAt: new Date().toISOString(), content: c, ttl: 60, audience: ['news'] };
  return u === undefined ? m : { ...m, urgency: u };
}

function v1Of(m: DispatchMessage): DispatchMessageV1 {
  const { content: c, ...rest } = m;
  return { ...rest, version: 1, ...c };
}

describe('dispatch message versions', () => {
  it('property: a message round-trips through its codec unchanged, written as version 1 (the previous release reads it)', () =>
    fc.assert(fc.property(content, urgency, (c, u) => {
      const m = v2(c, u);
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
    fc.assert(fc.property(content, urgency, (c, u) => {
      const m = v2(c, u);
      const old = Buffer.from(JSON.stringify(v1Of(m)));
      expect(codecs.dispatch.decode(old)).to.deep.equal(m);
      expect(upgradeDispatch(v1Of(m))).to.deep.equal(m);
    })));

  it('when a version 1 message lacks a content field, or a version 2 message its content, then it is refused with the reason', () => {
    const m = v2({ title: 'T', body: 'B', link: 'https://x.example/', utmSource: '', utmMedium: '', utmCampaign: '', icon: null, image: null, callToAction: '' });
    for (const field of REQUIRED_CONTENT_FIELDS) {
      const old: Record<string, unknown> = { ...v1Of(m) };
      delete old[field];
      expect(() => codecs.dispatch.decode(Buffer.from(JSON.stringify(old)))).to.throw(`must have required property '${field}'`);
    }
    const { content: _dropped, ...bare } = m;
    expect(() => codecs.dispatch.decode(Buffer.from(JSON.stringify(bare)))).to.throw("must have required property 'content'");
    expect(() => codecs.dispatch.decode(Buffer.from(JSON.stringify({ ...m, version: 3 })))).to.throw('/version must be equal to constant');
  });

  it('when a message has no options and no urgency (as earlier releases wrote it), then it is read with none: its pushes are what they were', () => {
    const m = v2({ title: 'T', body: 'B', link: 'https://x.example/', utmSource: '', utmMedium: '', utmCampaign: '', icon: null, image: null, callToAction: '' });
    const read = codecs.dispatch.decode(Buffer.from(JSON.stringify(v1Of(m))));
    expect(read.content).to.not.have.property('options');
    expect(read).to.not.have.property('urgency');
    expect(() => codecs.dispatch.decode(Buffer.from(JSON.stringify({ ...m, urgency: 'urgent' })))).to.throw('/urgency must be equal to one of the allowed values');
  });
});
