// Templates through the real stack (docs/api-decisions.md, "Templates"): a customer saves a
// template with /v2, previews it, and creates a campaign from it with its variables; the push each
// browser gets (decrypted by the push-service simulator) shows the rendered notification. Keys of
// another site, and of a plan that may not create campaigns, reach no template.
import { expect } from 'chai';
import pg from 'pg';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, DATE_RE, siteWithPermissions, subscribeSimulated, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const TEMPLATE = {
  name: 'Back in stock',
  title: 'Hi {{ first_name | "there" }}',
  body: 'Your {{ product }} is back',
  link: 'https://shop.example/p/{{ product_id }}',
  actions: [{ title: 'Buy now', link: 'https://shop.example/cart?add={{ product_id }}' }],
};

describe('e2e: templates', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let other: SiteInfo;
  let readOnly: SiteInfo;

  before(async () => {
    sim = await startPushSimulator({ seed: 37 });
    stack = await startStack('e2e_templates', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await siteWithPermissions(stack, ALL, 'templated');
    other = await siteWithPermissions(stack, ALL, 'bystander');
    readOnly = await siteWithPermissions(stack, ['reports'], 'reader');
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  const api = (method: string, path: string, body?: unknown, key = site.apiKey) => stack.api.request(method, path, { key, body });

  it('when a template is saved, read, listed, updated and deleted with /v2, then each answer is the Template object, and a refusal is a 4xx with a message', async () => {
    const created = await api('POST', '/v2/templates', { ...TEMPLATE, name: 'crud' });
    expect(created.status, created.text).to.equal(200);
    const t = created.body;
    expect(Object.keys(t)).to.deep.equal(['id', 'name', 'version', 'title', 'body', 'link', 'actions', 'variables', 'createdAt', 'updatedAt']);
    expect(t).to.deep.include({ name: 'crud', version: 1, title: TEMPLATE.title });
    expect(t.variables).to.deep.equal([
      { name: 'first_name', required: false },
      { name: 'product', required: true },
      { name: 'product_id', required: true },
    ]);
    expect(t.createdAt).to.match(DATE_RE);
    expect((await api('GET', `/v2/templates/${t.id}`)).body).to.deep.equal(t);
    const page = await api('GET', '/v2/templates?limit=1');
    expect(page.status).to.equal(200);
    expect(page.body).to.deep.include({ limit: 1 });
    expect(page.body.items[0].id).to.equal(t.id);

    const updated = await api('PATCH', `/v2/templates/${t.id}`, { body: 'Only {{ n | "a few" }} left' });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body).to.deep.include({ version: 2, body: 'Only {{ n | "a few" }} left' });

    const refused = await api('PATCH', `/v2/templates/${t.id}`, { title: 'Hi {{ Name }}' });
    expect(refused.status).to.equal(400);
    expect(refused.body.message).to.match(/^title has a malformed tag at character 3/);
    expect((await api('POST', '/v2/templates', { ...TEMPLATE, name: 'crud' })).status, 'a name taken').to.equal(409);
    expect((await api('POST', '/v2/templates', '[1]')).status).to.equal(400);

    expect((await api('DELETE', `/v2/templates/${t.id}`)).body).to.deep.equal({ id: t.id, deleted: true });
    // Recorded in the site's audit log by the /v2 router, with no code of the templates' own (reads and previews are not).
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await eventually(async () => {
        const { rows } = await db.query(`SELECT action, status FROM delivery.audit_log WHERE site_id = $1 AND target LIKE $2 ORDER BY id`, [site.id, `%${t.id}%`]);
        const got = rows.map((r) => `${r.action} ${r.status}`);
        return got.includes('deleteTemplate 200') ? got : undefined;
      }, 10_000, 100).then((got) => expect(got).to.deep.equal(['createTemplate 200', 'updateTemplate 200', 'updateTemplate 400', 'deleteTemplate 200']));
    } finally {
      await db.end();
    }
    const gone = await api('GET', `/v2/templates/${t.id}`);
    expect({ status: gone.status, body: gone.body }).to.deep.equal({ status: 404, body: { message: 'Template not found' } });
  });

  it('when another site or a plan that may not create campaigns calls, then it reaches no template', async () => {
    const t = (await api('POST', '/v2/templates', { ...TEMPLATE, name: 'private' })).body;
    for (const [method, path, body] of [
      ['GET', `/v2/templates/${t.id}`],
      ['PATCH', `/v2/templates/${t.id}`, { name: 'stolen' }],
      ['DELETE', `/v2/templates/${t.id}`],
      ['POST', `/v2/templates/${t.id}/render`, {}],
    ] as const) {
      const res = await api(method, path, body, other.apiKey);
      expect({ status: res.status, body: res.body }, `${method} ${path}`).to.deep.equal({ status: 404, body: { message: 'Template not found' } });
      const denied = await api(method, path, body, readOnly.apiKey);
      expect({ status: denied.status, body: denied.body }).to.deep.equal({ status: 403, body: { message: 'This plan does not have permission to manage templates via API' } });
    }
    expect((await api('GET', '/v2/templates', undefined, other.apiKey)).body.items).to.deep.equal([]);
    const create = await api('POST', '/v2/campaign/create', { template: { id: t.id, variables: { product: 'x', product_id: 1 } }, topics: ['news'], status: 'draft', scheduleMode: 'now' }, other.apiKey);
    expect({ status: create.status, body: create.body }).to.deep.equal({ status: 400, body: { message: 'template.id is not a template of this site' } });
    expect((await api('GET', `/v2/templates/${t.id}`)).body).to.deep.equal(t);
  });

  it('when a campaign is created from a template and sent, then each browser gets the rendered notification, as the preview showed', async () => {
    const t = (await api('POST', '/v2/templates', { ...TEMPLATE, name: 'sent' })).body;
    const variables = { first_name: 'Ana', product: 'red boots', product_id: 'b/42' };
    const preview = await api('POST', `/v2/templates/${t.id}/render`, { variables });
    expect(preview.status, preview.text).to.equal(200);
    expect(preview.body.template).to.deep.equal({ id: t.id, version: 1 });
    expect(preview.body.content).to.deep.include({ title: 'Hi Ana', body: 'Your red boots is back', link: 'https://shop.example/p/b%2F42' });
    const missing = await api('POST', `/v2/templates/${t.id}/render`, {});
    expect(missing.body).to.deep.equal({ message: 'Template variable product has no value and no default, Template variable product_id has no value and no default' });

    const browsers = await subscribeSimulated(stack, sim, site, 2, () => ({ topics: ['restock'] }));
    const created = await api('POST', '/v2/campaign/create', { template: { id: t.id, variables }, topics: ['restock'], status: 'published', scheduleMode: 'now' });
    expect(created.status, created.text).to.equal(200);
    const campaignId = created.body.id as string;
    const pushes = () => sim.received().filter((m) => JSON.parse(m.payload).id === campaignId).map((m) => JSON.parse(m.payload));
    await eventually(async () => (pushes().length >= browsers.length ? true : undefined), 60_000, 100);
    for (const p of pushes()) {
      expect(p).to.deep.include({ title: 'Hi Ana', body: 'Your red boots is back', url: 'https://shop.example/p/b%2F42' });
      expect(p.actions).to.deep.equal([{ title: 'Buy now', url: 'https://shop.example/cart?add=b%2F42' }]);
    }
    const campaign = await api('GET', `/v2/campaign/${campaignId}`);
    expect(campaign.body).to.deep.include({ title: 'Hi Ana', link: 'https://shop.example/p/b%2F42' });
  });
});
