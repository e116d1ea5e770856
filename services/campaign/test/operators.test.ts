import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { AuthenticateResponse__Output } from '@webpush/contracts/generated/campaign/v1/AuthenticateResponse.js';
import { randomUUID } from 'node:crypto';
import { OperatorConflictError, OperatorError, publicIdOf } from '../src/sites/operators.js';
import { expectStatus, hashApiKey, startHarness, type Harness } from './support/harness.js';

describe('operators and Authenticate', function () {
  let h: Harness;

  before(async () => {
    h = await startHarness('campaign_operators');
  });
  after(async () => h?.stop());

  /** A site created whole (the delivery service's operators register it, in process): its row here. */
  const newSite = async (name: string, plan: string) => (await h.operators.createSite({ name, plan }, h.deliveryOperators.registerSite)).site;
  const authenticate = (key: string) => h.call<AuthenticateResponse__Output>('Authenticate', { keyHash: hashApiKey(key) });

  it('creates plans with their permissions and refuses a duplicate name', async () => {
    const plan = await h.operators.createPlan('reports-only', ['reports']);
    expect(plan.permissions).to.deep.equal({ create: false, reports: true, delete: false, audience: false });
    const err = await h.operators.createPlan('reports-only', []).catch((e) => e);
    expect(err).to.be.instanceOf(OperatorError);
    expect(err.message).to.equal('plan "reports-only" already exists');
    expect((await h.operators.listPlans()).map((p) => p.name)).to.include('reports-only');
  });

  it('creates a site with a public id and refuses an unknown plan', async () => {
    const err = await newSite('x', 'nope').catch((e) => e);
    expect(err).to.be.instanceOf(OperatorError);
    expect(err.message).to.equal('plan "nope" does not exist');
    await h.operators.createPlan('basic', ['create']);
    const site = await newSite('Shop', 'basic');
    expect(site.publicId).to.match(/^pub_[A-Za-z0-9_-]{22}$/);
    expect(site).to.deep.include({ name: 'Shop', plan: 'basic' });
    expect(await h.operators.getSite(site.publicId)).to.deep.equal(site);
    expect(await h.operators.getSite(site.id)).to.deep.equal(site);
    expect(await h.operators.getSite('pub_missing')).to.equal(null);
    expect((await h.operators.listSites()).map((s) => s.id)).to.include(site.id);
  });

  it('when a site is created, then the delivery service has it too, with the same public id, and it has one working key', async () => {
    const id = randomUUID();
    const created = await h.operators.createSite({ id, name: 'Whole', plan: 'basic' }, h.deliveryOperators.registerSite);
    expect(created.site.id).to.equal(id);
    expect(created.site.publicId).to.equal(publicIdOf(id));
    const there = await h.pool.query('SELECT public_id, vapid_public_key FROM delivery.sites WHERE site_id = $1', [id]);
    expect(there.rows).to.deep.equal([{ public_id: created.site.publicId, vapid_public_key: created.vapidPublicKey }]);
    expect((await authenticate(created.issued.key)).siteId).to.equal(id);
    // Repeated after success: refused (the key was shown once), nothing added.
    const again = await h.operators.createSite({ id, name: 'Whole', plan: 'basic' }, h.deliveryOperators.registerSite).catch((e) => e);
    expect(again).to.be.instanceOf(OperatorConflictError);
    expect(again.message).to.match(/exists already/);
    expect(await h.operators.listKeys(id)).to.have.length(1);
  });

  it('when the delivery service cannot register the site, then nothing is stored here, and the same call again makes it whole', async () => {
    const id = randomUUID();
    const down = new Error('delivery service down');
    const failed = await h.operators.createSite({ id, name: 'Later', plan: 'basic' }, () => Promise.reject(down)).catch((e) => e);
    expect(failed).to.equal(down);
    expect(await h.operators.getSite(id)).to.equal(null);
    expect((await h.pool.query('SELECT count(*)::int AS n FROM campaign.api_keys WHERE site_id = $1', [id])).rows[0].n).to.equal(0);
    // Registered there but the answer lost (a crash in between): the repeat reuses it.
    await h.deliveryOperators.registerSite({ siteId: id, publicId: publicIdOf(id) });
    const made = await h.operators.createSite({ id, name: 'Later', plan: 'basic' }, h.deliveryOperators.registerSite);
    expect(made.site).to.deep.include({ id, name: 'Later', plan: 'basic' });
    expect((await authenticate(made.issued.key)).siteId).to.equal(id);
  });

  it('when a name is empty, too long or holds control characters, then it is refused with the reason', async () => {
    for (const [name, reason] of [
      ['  ', /must not be empty/],
      ['x'.repeat(201), /at most 200 characters/],
      ['a\u0000b', /control characters/],
      ['a\ud800b', /control characters/],
    ] as const) {
      const err = await h.operators.createSite({ name, plan: 'basic' }, h.deliveryOperators.registerSite).catch((e) => e);
      expect(err, name).to.be.instanceOf(OperatorError);
      expect(err.message).to.match(reason);
      expect((await h.operators.createPlan(name, []).catch((e) => e)).message).to.match(reason);
    }
  });

  it('issues keys that are stored only as their SHA-256 and authenticate to the site with its plan, naming the key (its id, prefix and label) for the audit log', async () => {
    await h.operators.createPlan('full', ['create', 'reports', 'delete', 'audience']);
    const site = await newSite('Blog', 'full');
    const issued = await h.operators.issueKey(site.id, { label: 'CRM sync' });
    expect(issued.key).to.match(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(issued.prefix).to.equal(issued.key.slice(0, 12));
    const stored = await h.pool.query('SELECT key_hash, prefix FROM campaign.api_keys WHERE id = $1', [issued.keyId]);
    expect(stored.rows[0]).to.deep.equal({ key_hash: hashApiKey(issued.key), prefix: issued.prefix });
    const dump = JSON.stringify((await h.pool.query('SELECT * FROM campaign.api_keys')).rows);
    expect(dump).to.not.include(issued.key);

    const auth = await authenticate(issued.key);
    expect(auth).to.deep.equal({
      siteId: site.id,
      permissions: { create: true, reports: true, delete: true, audience: true },
      keyId: issued.keyId,
      keyPrefix: issued.prefix,
      keyLabel: 'CRM sync',
    });
  });

  it('when a key is unknown or not a hash, then UNAUTHENTICATED "Not authorized"', async () => {
    await expectStatus(authenticate('wpk_unknown'), grpc.status.UNAUTHENTICATED, 'Not authorized');
    await expectStatus(h.call('Authenticate', { keyHash: 'not-a-hash' }), grpc.status.UNAUTHENTICATED, 'Not authorized');
    await expectStatus(h.call('Authenticate', { keyHash: hashApiKey('x').toUpperCase() }), grpc.status.UNAUTHENTICATED, 'Not authorized');
  });

  it('when keys are revoked (one by prefix, or all), then they no longer authenticate', async () => {
    const site = await newSite('Revoke', 'full');
    const a = await h.operators.issueKey(site.id);
    const b = await h.operators.issueKey(site.publicId);
    expect(await h.operators.revokeKeys(site.id, a.prefix)).to.equal(1);
    await expectStatus(authenticate(a.key), grpc.status.UNAUTHENTICATED, 'Not authorized');
    expect((await authenticate(b.key)).siteId).to.equal(site.id);
    const c = await h.operators.issueKey(site.id);
    expect(await h.operators.revokeKeys(site.id, c.keyId)).to.equal(1);
    // b and the key the site was created with.
    expect(await h.operators.revokeKeys(site.id)).to.equal(2);
    await expectStatus(authenticate(b.key), grpc.status.UNAUTHENTICATED, 'Not authorized');
    const keys = await h.operators.listKeys(site.id);
    expect(keys).to.have.length(4);
    expect(keys.every((k) => k.revokedAt !== null)).to.equal(true);
  });

  it('when a key is issued with revokeOthers, then only the new key works', async () => {
    const site = await newSite('Rotate', 'full');
    const old = await h.operators.issueKey(site.id);
    const fresh = await h.operators.issueKey(site.id, { revokeOthers: true });
    await expectStatus(authenticate(old.key), grpc.status.UNAUTHENTICATED, 'Not authorized');
    expect((await authenticate(fresh.key)).siteId).to.equal(site.id);
  });

  it('when the plan changes, then Authenticate reports the new permissions', async () => {
    const site = await newSite('Upgrade', 'reports-only');
    const { key } = await h.operators.issueKey(site.id);
    expect((await authenticate(key)).permissions).to.deep.equal({ create: false, reports: true, delete: false, audience: false });
    expect((await h.operators.changePlan(site.id, 'full')).plan).to.equal('full');
    expect((await authenticate(key)).permissions).to.deep.equal({ create: true, reports: true, delete: true, audience: true });
    const err = await h.operators.changePlan(site.id, 'missing').catch((e) => e);
    expect(err.message).to.equal('plan "missing" does not exist');
    const err2 = await h.operators.issueKey('pub_nope').catch((e) => e);
    expect(err2).to.be.instanceOf(OperatorError);
  });
});
