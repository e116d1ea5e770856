// Operations endpoints of the gateway, on a real stack (port 0): liveness, readiness that
// follows the gRPC backends, and Prometheus metrics with request counts and latencies.
import { expect } from 'chai';
import { ALL_PERMISSIONS, startStack, type Stack } from './support/stack.js';

describe('gateway operations endpoints', () => {
  let stack: Stack;

  before(async () => {
    stack = await startStack('gw_ops');
  });

  after(async () => {
    await stack?.stop();
  });

  it('GET /readyz answers 200 with each backend checked when both are reachable', async () => {
    const r = await stack.call('GET', '/readyz', { contract: false });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ status: 'ready', checks: { campaign: 'ok', delivery: 'ok' } });
    expect(r.headers.get('cache-control')).to.equal('no-store');
  });

  it('GET /metrics counts API requests by method, route and status, with latency histograms', async () => {
    const site = await stack.newSite(ALL_PERMISSIONS);
    expect((await stack.call('GET', '/v2/topics', { key: site.key })).status).to.equal(200);
    expect((await stack.call('GET', '/v2/campaign/0b7e6a0e-6f52-4d4e-9a6f-3c5f1b1d2e3f', { key: site.key })).status).to.equal(404);
    const r = await stack.call('GET', '/metrics', { contract: false });
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/plain/);
    expect(r.text).to.match(/^http_requests_total\{method="GET",route="\/v2\/topics",status="200",service="gateway"\} [1-9]/m);
    // ids never become labels: one series for every campaign id
    expect(r.text).to.match(/^http_requests_total\{method="GET",route="\/v2\/campaign\/:id",status="404",service="gateway"\} 1$/m);
    expect(r.text).to.match(/^http_request_duration_seconds_bucket\{[^}]*le="0\.005"[^}]*route="\/v2\/topics"[^}]*\} \d+$/m);
    expect(r.text).to.match(/^http_request_duration_seconds_count\{[^}]*route="\/v2\/topics"[^}]*\} [1-9]/m);
    expect(r.text).to.include('process_cpu_seconds_total');
    expect(r.text).to.not.include(site.key);
  });

  it('GET /healthz stays 200 and /readyz turns 503 naming the backend when the campaign service is down', async () => {
    const lonely = await stack.startGatewayWith({ CAMPAIGN_GRPC_TARGET: '127.0.0.1:1' });
    const health = await fetch(`${lonely.url}/healthz`);
    expect(health.status).to.equal(200);
    const ready = await fetch(`${lonely.url}/readyz`);
    expect(ready.status).to.equal(503);
    expect(await ready.json()).to.deep.equal({ status: 'not ready', checks: { campaign: 'failing', delivery: 'ok' } });
  });

  it('answers POST /metrics and /readyz like any unknown route, without a 5xx', async () => {
    for (const path of ['/metrics', '/readyz']) {
      const r = await stack.call('POST', path, { contract: false });
      expect(r.status, path).to.be.within(400, 499);
    }
  });
});
