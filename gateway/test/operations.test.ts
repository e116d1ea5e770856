// Operations endpoints of the gateway, on a real stack (port 0): liveness on both ports;
// readiness and Prometheus metrics only on the ops listener; readiness that stays ready while
// a backend is down (backends reported, not gating) and turns 503 once the gateway stops.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ALL_PERMISSIONS, startStack, type Stack } from './support/stack.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('gateway operations endpoints', () => {
  let stack: Stack;

  before(async () => {
    stack = await startStack('gw_ops');
  });

  after(async () => {
    await stack?.stop();
  });

  it('GET /readyz on the ops port answers 200 with both backends reported', async () => {
    const r = await fetch(`${stack.gateway.opsUrl}/readyz`);
    expect(r.status).to.equal(200);
    expect(await r.json()).to.deep.equal({ status: 'ready', checks: {}, reported: { campaign: 'ok', delivery: 'ok' } });
    expect(r.headers.get('cache-control')).to.equal('no-store');
    // Which release answers: package.json's version (CHANGELOG.md).
    expect(await (await fetch(`${stack.gateway.opsUrl}/healthz`)).json()).to.deep.equal({ status: 'ok', version: PACKAGE_VERSION });
  });

  it('GET /metrics on the ops port counts API requests by method, route and status, with latency histograms', async () => {
    const site = await stack.newSite(ALL_PERMISSIONS);
    expect((await stack.call('GET', '/v2/topics', { key: site.key })).status).to.equal(200);
    expect((await stack.call('GET', '/v2/campaign/0b7e6a0e-6f52-4d4e-9a6f-3c5f1b1d2e3f', { key: site.key })).status).to.equal(404);
    const r = await fetch(`${stack.gateway.opsUrl}/metrics`);
    const text = await r.text();
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/plain/);
    expect(text).to.match(/^http_requests_total\{method="GET",route="\/v2\/topics",status="200",webpush_service="gateway"\} [1-9]/m);
    // ids never become labels: one series for every campaign id
    expect(text).to.match(/^http_requests_total\{method="GET",route="\/v2\/campaign\/:id",status="404",webpush_service="gateway"\} 1$/m);
    expect(text).to.match(/^http_request_duration_seconds_bucket\{[^}]*le="0\.005"[^}]*route="\/v2\/topics"[^}]*\} \d+$/m);
    expect(text).to.match(/^http_request_duration_seconds_count\{[^}]*route="\/v2\/topics"[^}]*\} [1-9]/m);
    expect(text).to.include('process_cpu_seconds_total');
    expect(text).to.not.include(site.key);
  });

  it('the public port keeps only GET /healthz (no detail): /readyz and /metrics answer 404 there, for any method', async () => {
    const health = await stack.call('GET', '/healthz', { contract: false });
    expect([health.status, health.body]).to.deep.equal([200, { status: 'ok' }]);
    for (const path of ['/readyz', '/metrics']) {
      for (const method of ['GET', 'POST']) {
        const r = await stack.call(method, path, { contract: false });
        expect([method, path, r.status, r.body]).to.deep.equal([method, path, 404, { message: 'Not found' }]);
      }
    }
  });

  it('when the campaign service is unreachable, then the gateway stays ready (the backend is reported failing) and /v2 fails fast with 503 and Retry-After', async () => {
    const lonely = await stack.startGatewayWith({ CAMPAIGN_GRPC_TARGET: '127.0.0.1:1', GRPC_DEADLINE_MS: '2000' });
    const ready = await fetch(`${lonely.opsUrl}/readyz`);
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.deep.equal({ status: 'ready', checks: {}, reported: { campaign: 'failing', delivery: 'ok' } });
    const started = Date.now();
    const list = await fetch(`${lonely.url}/v2/campaigns`, { method: 'POST', headers: { Authorization: 'wpk_' + 'a'.repeat(43) } });
    expect([list.status, list.headers.get('retry-after'), await list.json()]).to.deep.equal([503, '5', { message: 'Service temporarily unavailable. The request was not processed; retry after Retry-After seconds' }]);
    expect(Date.now() - started).to.be.below(2500);
  });

  it('when the gateway is stopping, then /readyz turns 503 before the listeners close', async () => {
    const leaving = await stack.startGatewayWith({});
    const stopped = leaving.stop();
    const r = await fetch(`${leaving.opsUrl}/readyz`).catch(() => undefined);
    // Either the drain was seen (503) or the ops listener had already gone: never "ready".
    if (r) expect(r.status).to.equal(503);
    await stopped;
  });

  it('GATEWAY_OPS_HOST and GATEWAY_OPS_PORT place the ops listener; unknown ops paths answer 404 JSON', async () => {
    const g = await stack.startGatewayWith({ GATEWAY_OPS_HOST: '127.0.0.1', GATEWAY_OPS_PORT: '0' });
    expect(g.opsPort).to.not.equal(g.port);
    const r = await fetch(`${g.opsUrl}/v2/topics`);
    expect([r.status, await r.json()]).to.deep.equal([404, { message: 'Not found' }]);
  });
});
