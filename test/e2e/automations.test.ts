// An automation's step through the real stack (docs/api-decisions.md, "Automations"): events
// posted to the gateway start people's runs; the campaign service's runner sends the people due
// together as ONE notification from the step's template (outbox → Kafka → delivery), and the
// delivery service renders it per person with their tags — `{{ first_name | "there" }}` gives a
// tagged person their name and an untagged one the default — and pushes it to the simulator; the
// notification's results are per person.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

describe('e2e: automations', function () {
  // The stack's start (Kafka, the build) alone took over 180 s on the shared machine.
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let db: pg.Pool;

  before(async () => {
    sim = await startPushSimulator({ seed: 41 });
    stack = await startStack('e2e_automations', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await siteWithPermissions(stack, ALL, 'series');
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    await sim?.close();
  });

  const call = (method: string, path: string, body?: unknown) => stack.api.request(method, path, { key: site.apiKey, body });

  /** A browser of the site subscribed and identified as `externalId`. */
  async function identifiedBrowser(secret: string, externalId: string) {
    const sub = sim.createSubscription(site.vapidPublicKey);
    const created = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['news'] } });
    expect(created.status, created.text).to.equal(201);
    const signature = createHmac('sha256', secret).update(externalId).digest('hex');
    const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/identity`, { body: { endpoint: sub.endpoint, externalId, signature } });
    expect(res.body).to.deep.equal({ identified: true });
    return sub.id;
  }

  it("when people's events make a step due together, then one notification names them all and each browser gets the template rendered with its person's tags", async () => {
    const { secret } = await stack.cli('sites', 'identity-secret', site.id);
    const people = { ana: await identifiedBrowser(secret, 'ana'), bo: await identifiedBrowser(secret, 'bo'), cy: await identifiedBrowser(secret, 'cy') };
    for (const [who, name] of [['ana', 'Ana'], ['bo', 'Bo']]) {
      const patched = await call('PATCH', `/v2/users/${who}`, { tags: { first_name: name } });
      expect(patched.status, patched.text).to.equal(200);
    }
    const tmpl = await call('POST', '/v2/templates', { name: 'tip', title: 'Hi {{ first_name | "there" }}', body: 'Your {{ plan }} plan: a tip', link: 'https://shop.example/tips' });
    expect(tmpl.status, tmpl.text).to.equal(200);
    const automation = await call('POST', '/v2/automations', { name: 'Tips', trigger: { type: 'event', name: 'signed_up' }, steps: [{ delaySeconds: 3600, templateId: tmpl.body.id }] });
    expect(automation.status, automation.text).to.equal(200);
    const id = automation.body.id as string;
    for (const who of Object.keys(people)) {
      const res = await call('POST', '/v2/events', { externalId: who, name: 'signed_up', properties: { plan: 'gold' } });
      expect(res.status, res.text).to.equal(202);
    }
    // The hour passes for all three at once (their due time moved back): one batch of the runner claims them together.
    await db.query(`UPDATE campaign.automation_enrolments SET due_at = now() WHERE automation_id = $1`, [id]);
    const read = await eventually(async () => {
      const res = await call('GET', `/v2/automations/${id}`);
      return res.body.steps?.[0]?.results?.sent === 3 ? res.body : undefined;
    }, 60_000, 200);
    expect(read.enrolments).to.deep.include({ completed: 3 });
    const notifications = (await db.query(`SELECT DISTINCT notification_id::text AS id FROM campaign.automation_sends WHERE automation_id = $1`, [id])).rows.map((r) => r.id as string);
    expect(notifications).to.have.length(1);
    const pushesOf = (ids: string[]) => sim.received().filter((m) => ids.includes(JSON.parse(m.payload).id));
    await eventually(async () => (pushesOf(notifications).length >= 3 ? true : undefined), 60_000, 200);
    const titles = Object.fromEntries(pushesOf(notifications).map((m) => [Object.entries(people).find(([, simId]) => simId === m.subscriptionId)![0], JSON.parse(m.payload).title]));
    expect(titles).to.deep.equal({ ana: 'Hi Ana', bo: 'Hi Bo', cy: 'Hi there' });
    expect(JSON.parse(pushesOf(notifications)[0].payload).body).to.equal('Your gold plan: a tip');
    // Results per person, as any notification's.
    const results = [];
    for (const n of notifications) {
      const res = await eventually(async () => {
        const r = await call('GET', `/v2/notifications/${n}`);
        return r.body.status === 'completed' ? r.body : undefined;
      }, 60_000, 200);
      results.push(...res.results);
    }
    expect(results.sort((a, b) => a.externalId.localeCompare(b.externalId))).to.deep.equal(['ana', 'bo', 'cy'].map((externalId) => ({ externalId, outcome: 'sent' })));
    expect(sim.received().filter((m) => Object.values(people).includes(m.subscriptionId)).length, 'once each').to.equal(3);
  });
});
