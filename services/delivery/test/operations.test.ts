// Operations endpoints of the delivery service, on a real service (port 0) with the test Kafka:
// liveness, readiness (Postgres; Kafka reported), Prometheus metrics on the ops listener, and the
// gRPC health service.
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { healthStatus } from '../../../test/support/grpc-health.js';
import { testKafkaBrokers } from '../../../test/support/kafka.js';
import { request, startTestDelivery, type TestDelivery } from './support.js';

describe('delivery operations endpoints', () => {
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('delivery_ops', {
      KAFKA_BROKERS: testKafkaBrokers(),
      KAFKA_TOPIC_PREFIX: `ops-${randomBytes(3).toString('hex')}.`,
    });
  });

  after(async () => {
    await t?.stop();
  });

  it('GET /healthz answers 200 and GET /readyz 200 with Postgres checked and Kafka reported, on the ops port', async () => {
    expect((await fetch(`${t.opsUrl}/healthz`)).status).to.equal(200);
    const r = await fetch(`${t.opsUrl}/readyz`);
    expect(r.status).to.equal(200);
    expect(await r.json()).to.deep.equal({ status: 'ready', checks: { postgres: 'ok' }, reported: { kafka: 'ok' } });
  });

  it('the plugin port keeps only the liveness probe: /readyz and /metrics are not served there, to anyone', async () => {
    expect((await fetch(`${t.baseUrl}/healthz`)).status).to.equal(200);
    for (const path of ['/readyz', '/metrics']) {
      expect((await request(t, 'GET', path, { asGateway: false })).status, path).to.equal(401);
      expect(await request(t, 'GET', path), path).to.deep.include({ status: 404, body: { message: 'Not found' } });
    }
  });

  it('GET /metrics shows request counts, push outcomes and Kafka consumer lag per group', async () => {
    await fetch(`${t.baseUrl}/healthz`);
    await request(t, 'GET', '/public/v1/sites/pub_doesnotexist00000000000/config');
    // Fresh topics may have no partition leader for a moment: lag appears once offsets answer.
    let text = '';
    for (let i = 0; i < 50; i++) {
      const r = await fetch(`${t.opsUrl}/metrics`);
      expect(r.status).to.equal(200);
      text = await r.text();
      if ((text.match(/^kafka_consumer_group_lag\{/gm) ?? []).length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(text).to.match(/^http_requests_total\{method="GET",route="\/healthz",status="200",webpush_service="delivery"\} [1-9]/m);
    expect(text).to.match(/^http_request_duration_seconds_count\{[^}]*route="\/public\/v1\/sites\/:publicId\/config"[^}]*\} [1-9]/m);
    expect(text).to.include('# TYPE delivery_pushes_total counter');
    // The interactive pool has served the requests above, so it has a connection open; the caps
    // are the settings' defaults, and readiness has its one connection.
    expect(text).to.match(/^db_pool_connections\{pool="interactive",webpush_service="delivery"\} [1-9]\d*$/m);
    expect(text).to.match(/^db_pool_idle_connections\{pool="interactive",webpush_service="delivery"\} \d+$/m);
    expect(text).to.match(/^db_pool_waiting_clients\{pool="interactive",webpush_service="delivery"\} 0$/m);
    expect(text).to.match(/^db_pool_max_connections\{pool="interactive",webpush_service="delivery"\} 10$/m);
    expect(text).to.match(/^db_pool_max_connections\{pool="bulk",webpush_service="delivery"\} 4$/m);
    expect(text).to.match(/^db_pool_max_connections\{pool="readiness",webpush_service="delivery"\} 1$/m);
    expect(text).to.match(/^db_pool_max_connections\{pool="notifications",webpush_service="delivery"\} 12$/m);
    expect(text).to.match(/^kafka_consumer_group_lag\{group="delivery-dispatch",topic="campaign\.dispatch\.v1",webpush_service="delivery"\} 0$/m);
    expect(text).to.match(/^kafka_consumer_group_lag\{group="delivery-chunks",topic="delivery\.chunks\.v1",webpush_service="delivery"\} 0$/m);
  });

  it('counts gRPC calls and answers the gRPC health service for the overall status, Audience and liveness', async () => {
    const target = `127.0.0.1:${t.service.grpcPort}`;
    expect(await healthStatus(target, '')).to.equal('SERVING');
    expect(await healthStatus(target, 'delivery.v1.Audience')).to.equal('SERVING');
    expect(await healthStatus(target, 'liveness')).to.equal('SERVING');
    expect(await healthStatus(target, 'no.such.Service')).to.equal(`error ${grpc.status.NOT_FOUND}`);
    await new Promise<void>((resolve) => t.audienceAsGateway.listTopics({ siteId: '00000000-0000-4000-8000-000000000000' }, () => resolve()));
    const text = await (await fetch(`${t.opsUrl}/metrics`)).text();
    expect(text).to.match(/^grpc_server_handled_total\{grpc_service="delivery\.v1\.Audience",grpc_method="ListTopics",grpc_code="[A-Z_]+",webpush_service="delivery"\} 1$/m);
  });
});
