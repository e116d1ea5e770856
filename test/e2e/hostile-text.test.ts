// Regression for issue 10, defects 1 to 3, against the real processes. Defect 1: a lone surrogate
// in the list's status filter was echoed into the gRPC status details; grpc-js ran encodeURI on
// them inside the service's answer callback, the URIError became an unhandled rejection and the
// campaign process exited. Defect 2: a 75,000-character status value made a ~65.6 kB
// (Huffman-coded) grpc-message trailer; the gateway's HTTP/2 session refused it with GOAWAY
// COMPRESSION_ERROR, and every call multiplexed on that connection (every tenant's) waited for
// its 10 s deadline. Defect 3: NUL reached Postgres (a 500).
import { expect } from 'chai';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { startStack, type Stack } from './support/harness.js';

const ALLOWED = '. Allowed: draft, scheduled, sent, failed';

describe('e2e: hostile text cannot crash or stall the API', function () {
  this.timeout(120_000);
  let stack: Stack;
  let attacker: SiteInfo;
  let bystander: SiteInfo;

  before(async () => {
    stack = await startStack('e2e_hostile_text', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    attacker = await siteWithPermissions(stack, ALL, 'attacker');
    bystander = await siteWithPermissions(stack, ALL, 'bystander');
  });
  after(async () => {
    await stack?.stop();
  });

  const list = (site: SiteInfo, rawBody: string) => stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, rawBody });
  const campaignAlive = () => {
    expect(stack.services.exitCode('campaign'), 'campaign process exit code').to.equal(undefined);
    expect(stack.services.restarts('campaign'), 'campaign process restarts').to.equal(0);
  };

  /** Sends the attack while another site makes 11 calls; all must answer at once. */
  async function attackWithBystander(rawBody: string) {
    const started = Date.now();
    const attack = list(attacker, rawBody);
    const others = Array.from({ length: 11 }, () => list(bystander, '{}'));
    const [res, ...theirs] = await Promise.all([attack, ...others]);
    const elapsed = Date.now() - started;
    expect(theirs.map((r) => r.status), 'the other site\'s concurrent calls').to.deep.equal(Array(11).fill(200));
    expect(elapsed, 'answered at once, not after a deadline').to.be.below(3000);
    return res;
  }

  it('defect 1: {"status":["\\ud800"]} answers 400 at once and the campaign process stays up', async () => {
    for (const rawBody of ['{"status":["\\ud800"]}', '{"status":"\\ud800"}', '{"status":["\\udfff","sent"]}']) {
      const res = await attackWithBystander(rawBody);
      expect(res.status, rawBody).to.equal(400);
      expect(res.body.message).to.match(/^Invalid status values: \\ud(800|fff)\. Allowed: draft, scheduled, sent, failed$/);
      campaignAlive();
    }
  });

  it('defect 2: {"status":["x" × 75,000]} answers 400 at once with a bounded echo; other sites are not stalled', async () => {
    const res = await attackWithBystander(JSON.stringify({ status: ['x'.repeat(75_000)] }));
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ message: `Invalid status values: ${'x'.repeat(39)}…${ALLOWED}` });
    const many = await attackWithBystander(JSON.stringify({ status: Array.from({ length: 1000 }, (_, i) => `v${i}`.repeat(15)) }));
    expect(many.status).to.equal(400);
    expect(many.body.message.length).to.be.below(400);
    campaignAlive();
  });

  it('defect 3: NUL or a lone surrogate in a create field answers 400 with its message and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'Big\u0000sale' }, 'Title must not contain NUL characters or unpaired surrogates'],
      [{ title: 'Big\ud800sale' }, 'Title must not contain NUL characters or unpaired surrogates'],
      [{ topics: ['ne\u0000ws'] }, 'Topics must not contain NUL characters or unpaired surrogates'],
      [{ countries: ['b\u0000r'] }, 'Countries must not contain NUL characters or unpaired surrogates'],
      [{ utmSource: '\ud800' }, 'utmSource must not contain NUL characters or unpaired surrogates'],
      [{ callToAction: 'Go\u0000' }, 'Call to action must not contain NUL characters or unpaired surrogates'],
    ];
    for (const [overrides, message] of cases) {
      const res = await stack.api.request('POST', '/v2/campaign/create', { key: attacker.apiKey, body: validCampaign(overrides) });
      expect({ status: res.status, body: res.body }, JSON.stringify(overrides)).to.deep.equal({ status: 400, body: { message } });
    }
    const page = await list(attacker, '{}');
    expect(page.body.items).to.deep.equal([]);
    campaignAlive();
  });

  it('defect 3, public side: NUL in language, timeZone and the endpoint fields answers 400, not 500', async () => {
    const base = `/public/v1/sites/${attacker.publicId}`;
    const keys = { p256dh: 'x', auth: 'y' };
    const answers = await Promise.all([
      stack.api.request('POST', `${base}/subscriptions`, { body: { subscription: { endpoint: 'https://127.0.0.1/push/a', keys }, language: 'p\u0000t' } }),
      stack.api.request('DELETE', `${base}/subscriptions`, { body: { endpoint: 'https://127.0.0.1/\u0000' } }),
      stack.api.request('POST', `${base}/pageviews`, { body: { endpoint: '\u0000' } }),
      stack.api.request('POST', `${base}/subscription-changes`, { body: { oldEndpoint: '\ud800', endpoint: 'https://127.0.0.1/push/b' } }),
    ]);
    expect(answers.map((a) => a.status)).to.deep.equal([400, 400, 400, 400]);
    expect(answers.slice(1).map((a) => a.body.message)).to.deep.equal([
      'endpoint must not contain NUL characters or unpaired surrogates',
      'endpoint must not contain NUL characters or unpaired surrogates',
      'oldEndpoint must not contain NUL characters or unpaired surrogates',
    ]);
    // (Kafka's start-up chatter aside.)
    expect(stack.logs.filter((l) => /"level":"error"/.test(l) && !/"msg":"kafka: /.test(l)), 'no error logged').to.deep.equal([]);
  });
});
