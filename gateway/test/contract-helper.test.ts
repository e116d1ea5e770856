import { expect } from 'chai';
import { assertResponseMatchesContract, contractDocument } from '../../test/support/openapi.js';

const campaign = {
  id: '6f1c2a5e-2b8f-4b8e-9a43-0c6de3f1b7a2',
  title: 'Weekend sale',
  body: 'Up to 50% off.',
  link: 'https://shop.example.org/sale',
  topics: ['sports', 'country__br'],
  status: 'published',
  scheduleDate: '2026-11-20T10:00:00Z',
  scheduleMode: 'now',
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: null,
  totalUsers: 10,
  image: null,
  icon: null,
  callToAction: '',
  utmSource: '',
  utmMedium: '',
  utmCampaign: '',
  ttl: 2419200,
  ttlUnit: 'seconds',
  analytics: { clicks: 1, impressions: 4, ctr: 25, its: 40, totalUsers: 10 },
};

describe('contract helper (test/support/openapi.ts)', () => {
  it('parses the OpenAPI 3.1 document once and exposes it', () => {
    const doc = contractDocument();
    expect(doc.openapi).to.equal('3.1.0');
    expect(contractDocument()).to.equal(doc);
  });

  it('accepts a body that matches the documented schema of the operation and status', () => {
    assertResponseMatchesContract('GET', '/v2/campaign/6f1c2a5e-2b8f-4b8e-9a43-0c6de3f1b7a2', 200, campaign);
    assertResponseMatchesContract('POST', '/v2/campaigns?x=1', 200, { items: [campaign], limit: 10, hasMore: false, nextCursor: null });
    assertResponseMatchesContract('POST', '/v2/campaign/create', 200, { id: campaign.id });
    assertResponseMatchesContract('DELETE', '/v2/campaign/abc', 409, { message: 'Cannot delete a campaign that has already been sent' });
    assertResponseMatchesContract('GET', '/v2/topics', 200, [{ name: 'sports', users: 3 }]);
    assertResponseMatchesContract('POST', '/public/v1/sites/pub_x/subscriptions', 201, { id: '3c5e8f2a-6d1b-4e7a-9f0c-2b4d6a8e1c35', created: true });
  });

  it('a campaign with every notification option and an urgency matches the document; an option the document does not have does not', () => {
    const withOptions = {
      ...campaign,
      delivery: { sent: 4, failed: 0, expired: 0, pending: 0, failedBy: { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 } },
      actions: [{ title: 'Scores', link: 'https://shop.example.org/scores' }],
      badge: 'https://cdn.example.org/badge.png',
      requireInteraction: true,
      renotify: true,
      silent: true,
      vibrate: [200, 100, 200],
      timestamp: '2026-12-05T10:00:00Z',
      dir: 'rtl',
      lang: 'pt-BR',
      urgency: 'high',
    };
    assertResponseMatchesContract('GET', `/v2/campaign/${campaign.id}`, 200, withOptions);
    expect(() => assertResponseMatchesContract('GET', `/v2/campaign/${campaign.id}`, 200, { ...withOptions, urgency: 'normal' })).to.throw();
    expect(() => assertResponseMatchesContract('GET', `/v2/campaign/${campaign.id}`, 200, { ...withOptions, badges: 'x' })).to.throw();
  });

  it('prefers the concrete path /campaign/create over the template /campaign/{campaignId}', () => {
    assertResponseMatchesContract('POST', '/v2/campaign/create', 422, { message: 'Idempotency-Key was already used with a different request body' });
  });

  it('when a field is missing, has the wrong type or is extra, then it throws naming the operation, status and errors', () => {
    const bad = { ...campaign, updatedAt: '2026-11-20 10:00:00', extra: 1 } as Record<string, unknown>;
    delete bad.ttlUnit;
    expect(() => assertResponseMatchesContract('GET', '/v2/campaign/x', 200, bad))
      .to.throw(Error, /getCampaign \(GET \/v2\/campaign\/\{campaignId\}\) 200/)
      .and.satisfy((e: Error) => /ttlUnit/.test(e.message) && /additional properties/.test(e.message) && /pattern/.test(e.message));
  });

  it('when the date-time is not YYYY-MM-DDTHH:MM:SSZ, then it throws', () => {
    expect(() => assertResponseMatchesContract('GET', '/v2/campaign/x', 200, { ...campaign, createdAt: '2026-11-20T10:00:00.123Z' })).to.throw(/createdAt/);
  });

  it('when the status is not documented for the operation, then it throws', () => {
    expect(() => assertResponseMatchesContract('GET', '/v2/topics', 404, { message: 'Not found' })).to.throw(/listTopics .* does not document status 404/);
  });

  it('when the path or the method is not documented, then it throws', () => {
    expect(() => assertResponseMatchesContract('GET', '/v2/nope', 200, {})).to.throw(/no documented path/);
    expect(() => assertResponseMatchesContract('PUT', '/v2/topics', 200, [])).to.throw(/PUT is not documented/);
  });
});

describe('contract helper: an empty path parameter', () => {
  it('when the id is missing (/v2/campaign/ or /v2/campaign), then the response is checked against the {campaignId} operation', () => {
    assertResponseMatchesContract('GET', '/v2/campaign/', 400, { message: 'campaignId is required' });
    assertResponseMatchesContract('DELETE', '/v2/campaign', 400, { message: 'campaignId is required' });
    expect(() => assertResponseMatchesContract('DELETE', '/v2/campaign', 400, { message: 1 })).to.throw(/deleteCampaign/);
  });
});
