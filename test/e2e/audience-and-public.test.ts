// Topics and countries, the public subscribe endpoint through the gateway's proxy, and the
// served OpenAPI document.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import YAML from 'yaml';
import { ROOT } from '../../scripts/lib/local-env.js';
import { ALL, browserSubscription, siteWithPermissions, subscribe, type SiteInfo } from './support/fixtures.js';
import { startStack, type Stack } from './support/harness.js';

describe('e2e: audience and public endpoints', function () {
  this.timeout(180_000);
  let stack: Stack;
  let site: SiteInfo;
  let quiet: SiteInfo;

  before(async () => {
    // The test client stands for the trusted proxy in front of the gateway, which names the country.
    stack = await startStack('e2e_audience', { COUNTRY_HEADER: 'x-test-country', TRUSTED_PROXIES: '127.0.0.1,::1', SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '1000' });
    site = await siteWithPermissions(stack, ALL, 'audience');
    quiet = await siteWithPermissions(stack, ALL, 'quiet');
  });
  after(async () => {
    await stack?.stop();
  });

  it('when a site has no subscribers, then topics and countries are empty arrays', async () => {
    expect((await stack.api.request('GET', '/v2/topics', { key: quiet.apiKey })).body).to.deep.equal([]);
    expect((await stack.api.request('GET', '/v2/countries', { key: quiet.apiKey })).body).to.deep.equal([]);
  });

  it('when browsers subscribe through the gateway, then topics and countries list lowercase names with counts', async () => {
    await subscribe(stack, site, 'a1', ['News', 'sports'], 'BR');
    await subscribe(stack, site, 'a2', ['news'], 'br');
    await subscribe(stack, site, 'a3', ['culture'], 'PT');
    await subscribe(stack, site, 'a4', ['news']);
    await subscribe(stack, site, 'a5', ['news'], 'not-a-country');
    const topics = await stack.api.request('GET', '/v2/topics', { key: site.apiKey });
    expect(topics.body).to.deep.equal([
      { name: 'news', users: 4 },
      { name: 'culture', users: 1 },
      { name: 'sports', users: 1 },
    ]);
    const countries = await stack.api.request('GET', '/v2/countries', { key: site.apiKey });
    expect(countries.body).to.deep.equal([
      { name: 'country__br', users: 2 },
      { name: 'country__desconhecido', users: 2 },
      { name: 'country__pt', users: 1 },
    ]);
    // Another site sees none of it.
    expect((await stack.api.request('GET', '/v2/topics', { key: quiet.apiKey })).body).to.deep.equal([]);
  });

  it('when the same endpoint subscribes twice, then it is one subscriber (200 the second time)', async () => {
    const sub = browserSubscription('twice');
    const url = `/public/v1/sites/${quiet.publicId}/subscriptions`;
    const first = await stack.api.request('POST', url, { body: { subscription: sub, topics: ['deals'] } });
    const second = await stack.api.request('POST', url, { body: { subscription: sub, topics: ['deals'] } });
    expect(first.status).to.equal(201);
    expect(second.status).to.equal(200);
    expect(second.body.id).to.equal(first.body.id);
    expect((await stack.api.request('GET', '/v2/topics', { key: quiet.apiKey })).body).to.deep.equal([{ name: 'deals', users: 1 }]);
    const gone = await stack.api.request('DELETE', url, { body: { endpoint: sub.endpoint } });
    expect(gone.status).to.equal(200);
    expect((await stack.api.request('GET', '/v2/topics', { key: quiet.apiKey })).body).to.deep.equal([]);
  });

  it('when a subscription is not an https endpoint of an allowed push service, then 400 and nothing is stored', async () => {
    const url = `/public/v1/sites/${quiet.publicId}/subscriptions`;
    // 127.0.0.1 is a test push host in this stack (http and any port allowed there).
    for (const endpoint of ['http://fcm.googleapis.com/push/x', 'https://fcm.googleapis.com:6379/x', 'https://2130706433:8090/', 'https://evil.example/push/x', 'not a url']) {
      const res = await stack.api.request('POST', url, { body: { subscription: { ...browserSubscription('bad'), endpoint } } });
      expect(res.status, endpoint).to.equal(400);
      expect(res.body.message).to.be.a('string');
    }
    const unknownSite = await stack.api.request('POST', '/public/v1/sites/pub_doesnotexist000000000/subscriptions', { body: { subscription: browserSubscription('x') } });
    expect(unknownSite.status).to.equal(404);
    expect((await stack.api.request('GET', '/v2/countries', { key: quiet.apiKey })).body).to.deep.equal([]);
  });

  it('when the gateway serves its OpenAPI document, then it is the document kept in the repo, naming the origin it was asked at', async () => {
    const served = await fetch(`${stack.services.gatewayUrl}/v2/openapi.json`);
    expect(served.status).to.equal(200);
    const repo = YAML.parse(await readFile(path.join(ROOT, 'gateway/openapi/openapi.yaml'), 'utf8'));
    repo.servers[0].variables.origin.default = stack.services.gatewayUrl; // the origin it was asked at
    expect(await served.json()).to.deep.equal(repo);
  });
});
