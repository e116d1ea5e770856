import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { AuthenticateResponse__Output } from '../../../protos/generated/campaign/v1/AuthenticateResponse.js';
import { OperatorError } from '../src/domain/operators.js';
import { expectStatus, hashApiKey, startHarness, type Harness } from './support/harness.js';

describe('operators and Authenticate', function () {
  let h: Harness;

  before(async () => {
    h = await startHarness('campaign_operators');
  });
  after(async () => h?.stop());

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
    const err = await h.operators.createSite({ name: 'x', plan: 'nope' }).catch((e) => e);
    expect(err).to.be.instanceOf(OperatorError);
    expect(err.message).to.equal('plan "nope" does not exist');
    await h.operators.createPlan('basic', ['create']);
    const site = await h.operators.createSite({ name: 'Shop', plan: 'basic' });
    expect(site.publicId).to.match(/^pub_[A-Za-z0-9_-]{22}$/);
    expect(site).to.deep.include({ name: 'Shop', plan: 'basic' });
    expect(await h.operators.getSite(site.publicId)).to.deep.equal(site);
    expect(await h.operators.getSite(site.id)).to.deep.equal(site);
    expect(await h.operators.getSite('pub_missing')).to.equal(null);
    expect((await h.operators.listSites()).map((s) => s.id)).to.include(site.id);
  });

  it('issues keys that are stored only as their SHA-256 and authenticate to the site with its plan', async () => {
    await h.operators.createPlan('full', ['create', 'reports', 'delete', 'audience']);
    const site = await h.operators.createSite({ name: 'Blog', plan: 'full' });
    const issued = await h.operators.issueKey(site.id);
    expect(issued.key).to.match(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(issued.prefix).to.equal(issued.key.slice(0, 12));
    const stored = await h.pool.query('SELECT key_hash, prefix FROM campaign.api_keys WHERE id = $1', [issued.keyId]);
    expect(stored.rows[0]).to.deep.equal({ key_hash: hashApiKey(issued.key), prefix: issued.prefix });
    const dump = JSON.stringify((await h.pool.query('SELECT * FROM campaign.api_keys')).rows);
    expect(dump).to.not.include(issued.key);

    const auth = await authenticate(issued.key);
    expect(auth).to.deep.equal({ siteId: site.id, permissions: { create: true, reports: true, delete: true, audience: true } });
  });

  it('when a key is unknown or not a hash, then UNAUTHENTICATED "Not authorized"', async () => {
    await expectStatus(authenticate('wpk_unknown'), grpc.status.UNAUTHENTICATED, 'Not authorized');
    await expectStatus(h.call('Authenticate', { keyHash: 'not-a-hash' }), grpc.status.UNAUTHENTICATED, 'Not authorized');
    await expectStatus(h.call('Authenticate', { keyHash: hashApiKey('x').toUpperCase() }), grpc.status.UNAUTHENTICATED, 'Not authorized');
  });

  it('when keys are revoked (one by prefix, or all), then they no longer authenticate', async () => {
    const site = await h.operators.createSite({ name: 'Revoke', plan: 'full' });
    const a = await h.operators.issueKey(site.id);
    const b = await h.operators.issueKey(site.publicId);
    expect(await h.operators.revokeKeys(site.id, a.prefix)).to.equal(1);
    await expectStatus(authenticate(a.key), grpc.status.UNAUTHENTICATED, 'Not authorized');
    expect((await authenticate(b.key)).siteId).to.equal(site.id);
    const c = await h.operators.issueKey(site.id);
    expect(await h.operators.revokeKeys(site.id, c.keyId)).to.equal(1);
    expect(await h.operators.revokeKeys(site.id)).to.equal(1);
    await expectStatus(authenticate(b.key), grpc.status.UNAUTHENTICATED, 'Not authorized');
    const keys = await h.operators.listKeys(site.id);
    expect(keys).to.have.length(3);
    expect(keys.every((k) => k.revokedAt !== null)).to.equal(true);
  });

  it('when a key is issued with revokeOthers, then only the new key works', async () => {
    const site = await h.operators.createSite({ name: 'Rotate', plan: 'full' });
    const old = await h.operators.issueKey(site.id);
    const fresh = await h.operators.issueKey(site.id, { revokeOthers: true });
    await expectStatus(authenticate(old.key), grpc.status.UNAUTHENTICATED, 'Not authorized');
    expect((await authenticate(fresh.key)).siteId).to.equal(site.id);
  });

  it('when the plan changes, then Authenticate reports the new permissions', async () => {
    const site = await h.operators.createSite({ name: 'Upgrade', plan: 'reports-only' });
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
