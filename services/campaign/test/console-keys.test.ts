// A site's API keys and settings as the console manages them (campaign.v1.Console), against a
// real Postgres and the real delivery service: labels, the key shown once, revoke and rotate,
// last_used_at moved by the key check at most once a minute, site info, and the composer's
// audience estimate with the create's own validation messages.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { ApiKeyList__Output } from '@webpush/contracts/generated/campaign/v1/ApiKeyList.js';
import type { AuthenticateResponse__Output } from '@webpush/contracts/generated/campaign/v1/AuthenticateResponse.js';
import type { CampaignServiceClient } from '@webpush/contracts/generated/campaign/v1/CampaignService.js';
import type { EstimateAudienceResponse__Output } from '@webpush/contracts/generated/campaign/v1/EstimateAudienceResponse.js';
import type { IssuedApiKey__Output } from '@webpush/contracts/generated/campaign/v1/IssuedApiKey.js';
import type { RevokedApiKey__Output } from '@webpush/contracts/generated/campaign/v1/RevokedApiKey.js';
import type { SiteInfoResponse__Output } from '@webpush/contracts/generated/campaign/v1/SiteInfoResponse.js';
import { loadCampaignProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { hashApiKey } from '../src/sites/operators.js';
import { startConsoleHarness, type ConsoleHarness } from './support/console.js';

const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const KEY_NOT_FOUND = { code: grpc.status.NOT_FOUND, details: 'Key not found' };

describe('campaign service: console keys and site settings', function () {
  this.timeout(30_000);
  let h: ConsoleHarness;
  let campaigns: CampaignServiceClient;
  let siteId: string;
  let publicId: string;
  let otherSiteId: string;

  before(async () => {
    h = await startConsoleHarness('campaign_console_keys');
    ({ siteId, publicId } = await h.stack.newSite({ subscribers: [{ count: 4, topics: ['news'], countries: ['br'] }, { count: 2, topics: ['sports'], countries: ['pt'] }] }));
    otherSiteId = (await h.stack.newSite()).siteId;
    campaigns = new (loadCampaignProto().campaign.v1.CampaignService)(
      `127.0.0.1:${h.stack.campaign!.grpcPort}`,
      grpc.credentials.createInsecure(),
      withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN),
    );
  });
  after(async () => {
    campaigns?.close();
    await h?.stop();
  });

  const refused = async (method: Parameters<ConsoleHarness['refusal']>[0], req: object) => {
    const err = await h.refusal(method, req);
    return { code: err.code, details: err.details };
  };
  const authenticate = (key: string) =>
    new Promise<AuthenticateResponse__Output | grpc.ServiceError>((resolve) => campaigns.Authenticate({ keyHash: hashApiKey(key) }, (err, res) => resolve(err ?? res!)));
  const keysOf = async (site: string) => (await h.call<ApiKeyList__Output>('ListKeys', { siteId: site })).keys;

  it('when a key is created with a label, then it is answered once in full, listed by prefix with its label and dates, and works', async () => {
    const issued = await h.call<IssuedApiKey__Output>('CreateKey', { siteId, label: '  Production server  ' });
    expect(issued.apiKey).to.match(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(issued.key).to.deep.include({ label: 'Production server', prefix: issued.apiKey.slice(0, 12), lastUsedAt: '', revokedAt: '' });
    expect(issued.key!.createdAt).to.match(DATE);
    expect(issued.revoked).to.equal(null);
    const listed = (await keysOf(siteId)).find((k) => k.id === issued.key!.id);
    expect(listed).to.deep.equal(issued.key);
    expect(JSON.stringify(await keysOf(siteId))).to.not.include(issued.apiKey);
    expect(((await authenticate(issued.apiKey)) as AuthenticateResponse__Output).siteId).to.equal(siteId);
  });

  it('when a key is used, then last_used_at shows it, moved at most once a minute', async () => {
    const issued = await h.call<IssuedApiKey__Output>('CreateKey', { siteId, label: 'Cron' });
    const lastUsed = async () => (await h.stack.pool.query('SELECT last_used_at FROM campaign.api_keys WHERE id = $1', [issued.key!.id])).rows[0].last_used_at as Date | null;
    await authenticate(issued.apiKey);
    const first = await lastUsed();
    expect(Date.now() - first!.getTime()).to.be.below(10_000);
    expect((await keysOf(siteId)).find((k) => k.id === issued.key!.id)!.lastUsedAt).to.match(DATE);

    await h.stack.pool.query("UPDATE campaign.api_keys SET last_used_at = now() - interval '50 seconds' WHERE id = $1", [issued.key!.id]);
    const held = await lastUsed();
    for (let i = 0; i < 5; i++) await authenticate(issued.apiKey);
    expect((await lastUsed())!.getTime()).to.equal(held!.getTime());
    await h.stack.pool.query("UPDATE campaign.api_keys SET last_used_at = now() - interval '61 seconds' WHERE id = $1", [issued.key!.id]);
    await authenticate(issued.apiKey);
    expect(Date.now() - (await lastUsed())!.getTime()).to.be.below(10_000);
  });

  it('when a key is revoked, then it stops working, and revoking it again answers it as it is', async () => {
    const issued = await h.call<IssuedApiKey__Output>('CreateKey', { siteId, label: 'Old laptop' });
    const revoked = await h.call<RevokedApiKey__Output>('RevokeKey', { siteId, keyId: issued.key!.id });
    expect(revoked.key!.revokedAt).to.match(DATE);
    expect(((await authenticate(issued.apiKey)) as grpc.ServiceError).code).to.equal(grpc.status.UNAUTHENTICATED);
    expect(await h.call<RevokedApiKey__Output>('RevokeKey', { siteId, keyId: issued.key!.id })).to.deep.equal(revoked);
  });

  it('when a key is rotated, then a new key with its label replaces it, at once; a revoked key cannot be rotated', async () => {
    const issued = await h.call<IssuedApiKey__Output>('CreateKey', { siteId, label: 'Billing' });
    const rotated = await h.call<IssuedApiKey__Output>('RotateKey', { siteId, keyId: issued.key!.id });
    expect(rotated.apiKey).to.not.equal(issued.apiKey);
    expect(rotated.key).to.deep.include({ label: 'Billing', revokedAt: '' });
    expect(rotated.revoked).to.deep.include({ id: issued.key!.id, label: 'Billing' });
    expect(rotated.revoked!.revokedAt).to.match(DATE);
    expect(((await authenticate(issued.apiKey)) as grpc.ServiceError).code).to.equal(grpc.status.UNAUTHENTICATED);
    expect(((await authenticate(rotated.apiKey)) as AuthenticateResponse__Output).siteId).to.equal(siteId);
    expect(await refused('RotateKey', { siteId, keyId: issued.key!.id })).to.deep.equal({ code: grpc.status.FAILED_PRECONDITION, details: 'The key is already revoked' });
  });

  it("when a key is another site's, unknown or not an id, then it is not found, and nothing changes", async () => {
    const theirs = await h.call<IssuedApiKey__Output>('CreateKey', { siteId: otherSiteId, label: 'Theirs' });
    for (const keyId of [theirs.key!.id, '00000000-0000-4000-8000-000000000000', 'nope', '']) {
      expect(await refused('RevokeKey', { siteId, keyId }), keyId).to.deep.equal(KEY_NOT_FOUND);
      expect(await refused('RotateKey', { siteId, keyId }), keyId).to.deep.equal(KEY_NOT_FOUND);
    }
    expect(((await authenticate(theirs.apiKey)) as AuthenticateResponse__Output).siteId).to.equal(otherSiteId);
    expect((await keysOf(siteId)).some((k) => k.id === theirs.key!.id)).to.equal(false);
  });

  it('when a label is empty, too long or holds control characters, then the key is refused with its message', async () => {
    const cases: [string, string][] = [
      ['', 'Label must be 1 to 100 characters'],
      ['   ', 'Label must be 1 to 100 characters'],
      ['x'.repeat(101), 'Label must be 1 to 100 characters'],
      ['line\nbreak', 'Label must not contain control characters'],
      ['nul\u0000', 'label must not contain NUL characters or unpaired surrogates'],
    ];
    const before = (await keysOf(siteId)).length;
    for (const [label, details] of cases) expect(await refused('CreateKey', { siteId, label }), JSON.stringify(label)).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details });
    expect((await keysOf(siteId)).length).to.equal(before);
    // 100 characters, emoji counted as one each.
    expect((await h.call<IssuedApiKey__Output>('CreateKey', { siteId, label: '🔑'.repeat(100) })).key!.label).to.equal('🔑'.repeat(100));
  });

  it("when a site's settings are read, then they carry its public id and plan with its permissions; an unknown site is not found", async () => {
    const info = await h.call<SiteInfoResponse__Output>('SiteInfo', { siteId });
    expect(info).to.deep.include({ id: siteId, publicId });
    expect(info.planName).to.match(/^plan_/);
    expect(info.permissions).to.deep.equal({ create: true, reports: true, delete: true, audience: true });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect(await refused('SiteInfo', { siteId: id })).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
      expect(await refused('ListKeys', { siteId: id })).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
      expect(await refused('CreateKey', { siteId: id, label: 'x' })).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
    }
  });

  it('when the audience is estimated, then it counts the topics and countries as a create would, and refuses with the create\'s messages', async () => {
    const estimate = async (body: unknown) => (await h.call<EstimateAudienceResponse__Output>('EstimateAudience', { siteId, bodyJson: JSON.stringify(body) })).totalUsers;
    expect(await estimate({ topics: ['news'] })).to.equal(4);
    expect(await estimate({ topics: ['News '], countries: ['pt'] })).to.equal(6);
    expect(await estimate({ countries: ['country__br'] })).to.equal(4);
    expect(await estimate({ topics: ['news'], segment: { browsers: ['safari'] } })).to.be.a('number');
    const bad = (body: unknown) => refused('EstimateAudience', { siteId, bodyJson: typeof body === 'string' ? body : JSON.stringify(body) });
    expect(await bad({})).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: 'At least one topic or country must be specified' });
    expect(await bad({ topics: 'news' })).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: 'At least one topic or country must be specified' });
    expect((await bad({ topics: ['news'], segment: 5 })).details).to.match(/^segment must be an object/);
    expect(await bad('[]')).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: 'Invalid JSON body' });
    // Another site's subscribers never count.
    expect((await h.call<EstimateAudienceResponse__Output>('EstimateAudience', { siteId: otherSiteId, bodyJson: '{"topics":["news"]}' })).totalUsers).to.equal(0);
  });
});
