// One request id, end to end, on the real processes: accepted at the gateway from X-Request-Id,
// carried as gRPC metadata to the campaign service, with the dispatch job through the outbox
// and Kafka headers, into the delivery service's log lines for that campaign.
import { expect } from 'chai';
import { eventually, startStack, type Stack } from '../e2e/support/harness.js';
import { ALL, siteWithPermissions, subscribe, validCampaign } from '../e2e/support/fixtures.js';

describe('request id across the services', () => {
  let stack: Stack;

  before(async () => {
    stack = await startStack('reqid', { LOG_LEVEL: 'info', PUSH_MAX_ATTEMPTS: '1', PUSH_TIMEOUT_MS: '1000' });
  });

  after(async () => {
    await stack?.stop();
  });

  const linesOf = (service: string) =>
    stack.logs
      .filter((l) => l.startsWith(`[${service}] {`))
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as Record<string, unknown>);

  it('when a campaign is created with X-Request-Id, then the campaign and delivery logs for it carry that id', async () => {
    const site = await siteWithPermissions(stack, ALL);
    await subscribe(stack, site, 'reqid-1', ['news']);
    const requestId = `trace-${Date.now()}`;
    const res = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: validCampaign({ status: 'published' }),
      headers: { 'X-Request-Id': requestId },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-request-id')).to.equal(requestId);

    const published = await eventually(async () => linesOf('campaign').find((l) => l.msg === 'dispatch job published' && l.requestId === requestId), 20_000);
    expect(published).to.include({ level: 'info', service: 'campaign' });
    const expanded = await eventually(async () => linesOf('delivery').find((l) => l.msg === 'campaign expanded' && l.requestId === requestId), 20_000);
    expect(expanded.campaignId).to.equal(published.campaignId);
    // Every service writes structured JSON lines, and none of them contains the API key.
    expect(stack.logs.some((l) => l.includes(site.apiKey))).to.equal(false);
  });
});
