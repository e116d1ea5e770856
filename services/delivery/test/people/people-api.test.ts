// /v2/users/{externalId} at the delivery service (docs/people.md, "The API"), over its real gRPC
// calls as the gateway makes them: a person read with their subscriptions and tags, tags set,
// typed and bounded (a refusal changes nothing), the privacy delete of everything named in the
// docs, the export, their webhook events, and another site's people never reached.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { identitySignature, MAX_PERSON_SENDS, MAX_TAGS_PER_PERSON, PEOPLE_MESSAGES, TAG_MESSAGES } from '../../src/people/index.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from '../support.js';

describe('delivery: a site\'s people over gRPC (/v2/users)', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('people_api', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
  });
  after(async () => {
    await t?.stop();
  });

  type Call = 'GetPerson' | 'UpdatePerson' | 'DeletePerson' | 'ExportPerson' | 'ListPersonSends';
  const rpc = (name: Call, siteId: string, externalId: string, body?: unknown): Promise<any> =>
    new Promise((resolve, reject) =>
      (t.audienceAsGateway as any)[name]({ siteId, externalId, bodyJson: body === undefined ? '' : JSON.stringify(body) }, (err: grpc.ServiceError | null, res: unknown) => (err ? reject(err) : resolve(res))),
    );
  const refusal = (p: Promise<unknown>) => p.then(() => expect.fail('answered'), (err: grpc.ServiceError) => ({ code: err.code, details: err.details }));
  const tagsOf = async (siteId: string, id: string) => JSON.parse((await rpc('GetPerson', siteId, id)).tagsJson);

  /** A subscriber of the site identified as `externalId` (through the plugin's endpoints); answers its endpoint and public id. */
  async function identified(site: { siteId: string; publicId: string }, externalId: string) {
    const { secret } = await t.operators.identitySecret(site.siteId);
    const endpoint = pushEndpoint();
    const sub = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() }, topics: ['news'] } });
    const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/identity`, { body: { endpoint, externalId, signature: identitySignature(secret, externalId) } });
    expect(res.body).to.deep.equal({ identified: true });
    return { endpoint, publicId: sub.body.id as string };
  }

  it('when tags are set, then each keeps its type (a date as its instant in UTC), null removes one, and the person is made if new', async () => {
    const site = await newSite(t);
    const answer = await rpc('UpdatePerson', site.siteId, 'ann', { tags: { plan: 'gold', score: 42.5, vip: true, since: '2026-01-15', at: '2026-12-07T10:00:00+01:00', note: '2026-13-01x' } });
    expect(answer.externalId).to.equal('ann');
    expect(answer.subscriptions).to.deep.equal([]);
    expect(JSON.parse(answer.tagsJson)).to.deep.equal({ at: '2026-12-07T09:00:00.000Z', note: '2026-13-01x', plan: 'gold', score: 42.5, since: '2026-01-15T00:00:00.000Z', vip: true });
    const { rows } = await t.pool.query(`SELECT key, kind FROM delivery.person_tags t JOIN delivery.people p ON p.id = t.person_id WHERE p.site_id = $1 ORDER BY key`, [site.siteId]);
    expect(rows.map((r) => `${r.key}:${r.kind}`)).to.deep.equal(['at:date', 'note:string', 'plan:string', 'score:number', 'since:date', 'vip:boolean']);
    await rpc('UpdatePerson', site.siteId, 'ann', { tags: { plan: 'silver', vip: null, unknown: null } });
    expect(await tagsOf(site.siteId, 'ann')).to.deep.equal({ at: '2026-12-07T09:00:00.000Z', note: '2026-13-01x', plan: 'silver', score: 42.5, since: '2026-01-15T00:00:00.000Z' });
  });

  it(`when a change breaks a rule (keys, values, more than ${MAX_TAGS_PER_PERSON} tags, the body, the id), then INVALID_ARGUMENT with the rule, and nothing changes`, async () => {
    const site = await newSite(t);
    const full = Object.fromEntries(Array.from({ length: MAX_TAGS_PER_PERSON }, (_, i) => [`k${i}`, i]));
    await rpc('UpdatePerson', site.siteId, 'bo', { tags: full });
    const before = await tagsOf(site.siteId, 'bo');
    const cases: [unknown, string, string?][] = [
      [{ tags: { extra: 1 } }, TAG_MESSAGES.tooMany],
      [{ tags: { Bad: 1 } }, TAG_MESSAGES.key],
      [{ tags: { ['x'.repeat(65)]: 1 } }, TAG_MESSAGES.key],
      [{ tags: { k1: 'x'.repeat(257) } }, TAG_MESSAGES.value],
      [{ tags: { k1: [1] } }, TAG_MESSAGES.value],
      [{ tags: { k1: { a: 1 } } }, TAG_MESSAGES.value],
      [{ tags: { k1: 'a\u0000' } }, TAG_MESSAGES.valueCharacters],
      [{ tags: { k1: '2026-02-30' } }, TAG_MESSAGES.date],
      [{ tags: { k1: '2026-12-07T24:00:00Z' } }, TAG_MESSAGES.date],
      [{ tags: [] }, TAG_MESSAGES.tags],
      [{ tags: null }, TAG_MESSAGES.tags],
      [{}, PEOPLE_MESSAGES.body],
      [{ tags: {}, name: 'x' }, PEOPLE_MESSAGES.body],
      [{ tags: { a: 1 } }, 'externalId must be', 'x'.repeat(129)],
      [{ tags: { a: 1 } }, 'externalId must be', 'tab\there'],
    ];
    for (const [body, message, id] of cases) {
      const r = await refusal(rpc('UpdatePerson', site.siteId, id ?? 'bo', body));
      expect(r.code, JSON.stringify(body)).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(r.details, JSON.stringify(body)).to.contain(message);
    }
    expect(await tagsOf(site.siteId, 'bo')).to.deep.equal(before);
    const people = await t.pool.query('SELECT count(*)::int AS n FROM delivery.people WHERE site_id = $1', [site.siteId]);
    expect(people.rows[0].n, 'a refused change of a new id made no person').to.equal(1);
    // Removing one and adding one in the same change stays within the bound.
    await rpc('UpdatePerson', site.siteId, 'bo', { tags: { k0: null, fresh: 'yes' } });
    expect(Object.keys(await tagsOf(site.siteId, 'bo'))).to.have.length(MAX_TAGS_PER_PERSON);
  });

  it('when a person is read, then their subscriptions (public id, browser, active) come with the tags; unknown and other sites\' people are NOT_FOUND', async () => {
    const site = await newSite(t);
    const other = await newSite(t);
    const phone = await identified(site, 'cy');
    const laptop = await identified(site, 'cy');
    await request(t, 'DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint: laptop.endpoint } });
    await identified(other, 'dee');
    const person = await rpc('GetPerson', site.siteId, 'cy');
    expect(person.subscriptions.map((s: any) => ({ id: s.id, browser: s.browser, active: s.active }))).to.deep.equal([
      { id: phone.publicId, browser: 'other', active: true },
      { id: laptop.publicId, browser: 'other', active: false },
    ]);
    for (const [siteId, id] of [[site.siteId, 'dee'], [other.siteId, 'cy'], [site.siteId, 'nobody'], [randomUUID(), 'cy']]) {
      const r = await refusal(rpc('GetPerson', siteId, id));
      expect(r).to.deep.equal({ code: grpc.status.NOT_FOUND, details: PEOPLE_MESSAGES.notFound });
      expect(await refusal(rpc('DeletePerson', siteId, id))).to.deep.equal(r);
      expect(await refusal(rpc('ExportPerson', siteId, id))).to.deep.equal(r);
    }
  });

  it('when a person is exported and then deleted, then the export holds their subscriptions, sends and clicks; the delete removes exactly what the docs say, leaves the other site and other people, and both are webhook events', async () => {
    const site = await newSite(t);
    const other = await newSite(t);
    const mine = await identified(site, 'eve');
    const stranger = await identified(site, 'fay');
    const theirs = await identified(other, 'eve');
    await rpc('UpdatePerson', site.siteId, 'eve', { tags: { plan: 'gold' } });
    const ids = async (endpoints: string[]) => (await t.pool.query('SELECT id::text FROM delivery.subscribers WHERE endpoint = ANY($1) ORDER BY endpoint', [endpoints])).rows.map((r) => r.id);
    const [mineId] = await ids([mine.endpoint]);
    const [strangerId] = await ids([stranger.endpoint]);
    const [theirsId] = await ids([theirs.endpoint]);
    // A campaign of each site that reached these subscriptions, with an impression and a click.
    const campaign = randomUUID();
    const otherCampaign = randomUUID();
    await t.pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state) VALUES ($1, $2, '{}', 'completed'), ($3, $4, '{}', 'completed')`, [campaign, site.siteId, otherCampaign, other.siteId]);
    for (const [c, s] of [[campaign, mineId], [campaign, strangerId], [otherCampaign, theirsId]]) {
      await t.pool.query(`INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by, finished_at) VALUES ($1, $2, 'sent', $3, now())`, [c, s, randomUUID()]);
      await t.pool.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind) VALUES ($1, $2, 'impression'), ($1, $2, 'click')`, [c, s]);
    }
    await t.pool.query(`INSERT INTO delivery.subscriber_pushes (subscriber_id, campaign_id) VALUES ($1, $2)`, [mineId, campaign]);
    // An endpoint of the site that wants the person events, and a stored event naming the subscription.
    const hook = randomUUID();
    await t.pool.query(`INSERT INTO delivery.webhook_endpoints (id, site_id, url, events, secret_enc) VALUES ($1, $2, 'https://hooks.example.com/x', '{person.deleted,person.exported,subscriber.created}', '\\x00')`, [hook, site.siteId]);
    await t.pool.query(`INSERT INTO delivery.webhook_deliveries (endpoint_id, event_id, event_type, body) VALUES ($1, $2, 'subscriber.created', $3), ($1, $4, 'subscriber.created', $5)`, [
      hook, randomUUID(), JSON.stringify({ data: { subscriberId: mine.publicId } }), randomUUID(), JSON.stringify({ data: { subscriberId: stranger.publicId } }),
    ]);

    const exported = JSON.parse((await rpc('ExportPerson', site.siteId, 'eve')).json);
    expect(exported.externalId).to.equal('eve');
    expect(exported.tags).to.deep.equal({ plan: 'gold' });
    expect(exported.subscriptions.map((s: any) => [s.id, s.topics, s.active])).to.deep.equal([[mine.publicId, ['news'], true]]);
    expect(exported.subscriptions[0]).to.not.have.any.keys('endpoint', 'p256dh', 'auth', 'keys');
    expect(exported.deliveries.map((d: any) => [d.subscriptionId, d.campaignId, d.state])).to.deep.equal([[mine.publicId, campaign, 'sent']]);
    expect(exported.events.map((e: any) => [e.campaignId, e.type]).sort()).to.deep.equal([[campaign, 'click'], [campaign, 'impression']]);

    const personId = (await t.pool.query('SELECT id FROM delivery.people WHERE site_id = $1 AND external_id = $2', [site.siteId, 'eve'])).rows[0].id;
    const deleted = await rpc('DeletePerson', site.siteId, 'eve');
    expect(deleted).to.deep.equal({ externalId: 'eve', subscriptions: 1 });
    const count = async (sql: string, params: unknown[]) => (await t.pool.query(sql, params)).rows[0].n as number;
    expect(await count('SELECT count(*)::int AS n FROM delivery.subscribers WHERE id = $1', [mineId])).to.equal(0);
    expect(await count('SELECT count(*)::int AS n FROM delivery.delivery_log WHERE subscriber_id = $1', [mineId])).to.equal(0);
    expect(await count('SELECT count(*)::int AS n FROM delivery.tracking WHERE subscriber_id = $1', [mineId])).to.equal(0);
    expect(await count('SELECT count(*)::int AS n FROM delivery.subscriber_pushes WHERE subscriber_id = $1', [mineId])).to.equal(0);
    expect(await count(`SELECT count(*)::int AS n FROM delivery.webhook_deliveries WHERE strpos(body, $1) > 0`, [mine.publicId])).to.equal(0);
    expect(await count('SELECT count(*)::int AS n FROM delivery.people WHERE site_id = $1 AND external_id = $2', [site.siteId, 'eve'])).to.equal(0);
    expect(await count('SELECT count(*)::int AS n FROM delivery.person_tags WHERE person_id = $1', [personId])).to.equal(0);
    // Everyone else's rows stay: the other person of the site, the same id at the other site.
    for (const id of [strangerId, theirsId]) {
      expect(await count('SELECT count(*)::int AS n FROM delivery.delivery_log WHERE subscriber_id = $1', [id]), id).to.equal(1);
      expect(await count('SELECT count(*)::int AS n FROM delivery.tracking WHERE subscriber_id = $1', [id]), id).to.equal(2);
    }
    expect(await count(`SELECT count(*)::int AS n FROM delivery.webhook_deliveries WHERE strpos(body, $1) > 0`, [stranger.publicId])).to.equal(1);
    expect((await rpc('GetPerson', other.siteId, 'eve')).subscriptions).to.have.length(1);
    expect(await refusal(rpc('GetPerson', site.siteId, 'eve'))).to.deep.equal({ code: grpc.status.NOT_FOUND, details: PEOPLE_MESSAGES.notFound });

    const events = (await t.pool.query(`SELECT event_type, body FROM delivery.webhook_deliveries WHERE endpoint_id = $1 AND event_type LIKE 'person.%' ORDER BY id`, [hook])).rows;
    expect(events.map((e) => [e.event_type, JSON.parse(e.body).data])).to.deep.equal([
      ['person.exported', { externalId: 'eve' }],
      ['person.deleted', { externalId: 'eve', subscriptions: 1 }],
    ]);
  });
  it(`when the console asks what was sent to a person, then the newest ${MAX_PERSON_SENDS} sends of their subscriptions come newest first with kind, title, outcome, impression and click; nobody else's; more when older ones were left out`, async () => {
    const site = await newSite(t);
    const other = await newSite(t);
    const phone = await identified(site, 'gil');
    const laptop = await identified(site, 'gil');
    const stranger = await identified(site, 'hal');
    const theirs = await identified(other, 'gil');
    const idOf = async (endpoint: string) => (await t.pool.query('SELECT id::text FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rows[0].id as string;
    const [phoneId, laptopId, strangerId, theirsId] = await Promise.all([phone, laptop, stranger, theirs].map((s) => idOf(s.endpoint)));
    const person = await rpc('GetPerson', site.siteId, 'gil');
    expect(person.subscriptions.map((s: any) => [s.country, s.topics])).to.deep.equal([['', ['news']], ['', ['news']]]);

    const campaign = randomUUID();
    const notification = randomUUID();
    const revision = randomUUID();
    const old = randomUUID();
    const otherCampaign = randomUUID();
    const runs: [string, string, unknown][] = [
      [campaign, site.siteId, { version: 2, content: { title: 'Spring sale' } }],
      [notification, site.siteId, { version: 2, content: { title: 'Your order shipped' }, notification: { subscriptionIds: [phone.publicId] } }],
      [revision, site.siteId, { version: 2, content: { title: 'Spring sale (corrected)' }, revision: { campaignId: campaign, number: 1, action: 'update' } }],
      [old, site.siteId, { version: 1, title: 'Welcome' }],
      [otherCampaign, other.siteId, { version: 2, content: { title: 'Elsewhere' } }],
    ];
    for (const [id, siteId, job] of runs) await t.pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state) VALUES ($1, $2, $3, 'completed')`, [id, siteId, JSON.stringify(job)]);
    const log = async (c: string, s: string, state: string, minutesAgo: number) =>
      t.pool.query(`INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by, claimed_at, finished_at) VALUES ($1, $2, $3, $4, now() - $5 * interval '1 minute', CASE WHEN $3 <> 'claimed' THEN now() END)`, [c, s, state, randomUUID(), minutesAgo]);
    await log(old, phoneId, 'sent', 40);
    await log(campaign, phoneId, 'sent', 30);
    await log(campaign, laptopId, 'failed', 29);
    await log(revision, phoneId, 'sent', 20);
    await log(notification, phoneId, 'claimed', 10);
    await log(campaign, strangerId, 'sent', 5);
    await log(otherCampaign, theirsId, 'sent', 5);
    await t.pool.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind, at) VALUES ($1, $2, 'impression', now() - interval '28 minutes'), ($1, $2, 'click', now() - interval '27 minutes'), ($1, $3, 'impression', now())`, [campaign, phoneId, strangerId]);

    const answer = await rpc('ListPersonSends', site.siteId, 'gil');
    expect(answer.more).to.equal(false);
    expect(answer.sends.map((s: any) => [s.kind, s.runId, s.campaignId, s.title, s.subscriptionId, s.state, !!s.finishedAt, !!s.impressionAt, !!s.clickAt])).to.deep.equal([
      ['notification', notification, notification, 'Your order shipped', phone.publicId, 'claimed', false, false, false],
      ['revision', revision, campaign, 'Spring sale (corrected)', phone.publicId, 'sent', true, false, false],
      ['campaign', campaign, campaign, 'Spring sale', laptop.publicId, 'failed', true, false, false],
      ['campaign', campaign, campaign, 'Spring sale', phone.publicId, 'sent', true, true, true],
      ['campaign', old, old, 'Welcome', phone.publicId, 'sent', true, false, false],
    ]);
    expect(Date.parse(answer.sends[3].clickAt)).to.be.greaterThan(Date.parse(answer.sends[3].impressionAt));
    for (const [siteId, id] of [[other.siteId, 'hal'], [site.siteId, 'nobody'], [randomUUID(), 'gil']]) {
      expect(await refusal(rpc('ListPersonSends', siteId, id))).to.deep.equal({ code: grpc.status.NOT_FOUND, details: PEOPLE_MESSAGES.notFound });
    }
    expect((await refusal(rpc('ListPersonSends', site.siteId, 'x'.repeat(129)))).code).to.equal(grpc.status.INVALID_ARGUMENT);

    // More runs than the page shows: the newest MAX_PERSON_SENDS, and `more`.
    await t.pool.query(
      `WITH runs AS (
         INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state)
         SELECT gen_random_uuid(), $1, '{"version": 2, "content": {"title": "Bulk"}}', 'completed' FROM generate_series(1, $3::int) RETURNING campaign_id)
       INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by, finished_at) SELECT campaign_id, $2, 'sent', gen_random_uuid(), now() FROM runs`,
      [site.siteId, laptopId, MAX_PERSON_SENDS],
    );
    const full = await rpc('ListPersonSends', site.siteId, 'gil');
    expect(full.more).to.equal(true);
    expect(full.sends).to.have.length(MAX_PERSON_SENDS);
    expect(full.sends.map((s: any) => s.title)).to.not.include('Welcome');
    const times = full.sends.map((s: any) => Date.parse(s.at));
    expect(times).to.deep.equal([...times].sort((a: number, b: number) => b - a));
  });
});
