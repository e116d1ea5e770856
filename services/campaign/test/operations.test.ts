// Operations of the campaign service on a real instance (port 0): the gRPC health service, the
// Prometheus listener (gRPC rates/latencies, outbox backlog, scheduler lateness), and the request
// id carried from gRPC metadata into its logs and into the dispatch job in the outbox.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { healthStatus } from '../../../test/support/grpc-health.js';
import type { CampaignServiceClient } from '@webpush/contracts/generated/campaign/v1/CampaignService.js';
import { loadCampaignProto } from '@webpush/shared/grpc.js';
import { createLogger } from '@webpush/shared/log.js';
import type { RunningCampaignService } from '../src/app.js';
import { startHarness, type Harness } from './support/harness.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';

describe('campaign service operations', () => {
  let h: Harness;
  let service: RunningCampaignService;
  let client: CampaignServiceClient;
  const lines: string[] = [];

  before(async () => {
    h = await startHarness('campaign_ops');
    const capture = { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) };
    service = await h.startInstance({ SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' }, createLogger('campaign', 'debug', {}, capture));
    client = clientOf(service);
  });

  const clientOf = (s: RunningCampaignService): CampaignServiceClient =>
    new (loadCampaignProto().campaign.v1.CampaignService)(`127.0.0.1:${s.grpcPort}`, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));

  after(async () => {
    client?.close();
    await service?.stop();
    await h?.stop();
  });

  const call = <Res>(method: 'CreateCampaign' | 'Authenticate', request: object, requestId?: string) =>
    new Promise<Res>((resolve, reject) => {
      const metadata = new grpc.Metadata();
      if (requestId) metadata.set('x-request-id', requestId);
      const fn = client[method] as unknown as (req: object, md: grpc.Metadata, cb: (err: grpc.ServiceError | null, res: Res) => void) => void;
      fn.call(client, request, metadata, (err, res) => (err ? reject(err) : resolve(res)));
    });

  const metrics = async () => {
    const r = await fetch(`http://127.0.0.1:${service.metricsPort}/metrics`);
    expect(r.status).to.equal(200);
    return r.text();
  };

  it('answers the gRPC health service: overall, CampaignService and liveness are SERVING', async () => {
    const target = `127.0.0.1:${service.grpcPort}`;
    expect(await healthStatus(target, '')).to.equal('SERVING');
    expect(await healthStatus(target, 'campaign.v1.CampaignService')).to.equal('SERVING');
    expect(await healthStatus(target, 'liveness')).to.equal('SERVING');
  });

  it('carries the caller\'s request id into its logs and into the dispatch job it writes to the outbox', async () => {
    const site = await h.newSite({ subscribers: [{ count: 3, topics: ['news'], countries: ['br'] }] });
    const body = { title: 'Hello', body: 'World', link: 'https://example.org/', topics: ['news'], status: 'published', scheduleMode: 'now' };
    const res = await call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' }, 'ops-trace-42');
    const { rows } = await h.pool.query(`SELECT payload FROM campaign.outbox WHERE campaign_id = $1`, [res.id]);
    expect(rows).to.have.length(1);
    expect(rows[0].payload.requestId).to.equal('ops-trace-42');
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'grpc call' && l.method === 'CreateCampaign');
    expect(logged.at(-1)).to.include({ requestId: 'ops-trace-42', service: 'campaign', level: 'debug', code: 0 });
  });

  it('replaces an unsafe request id instead of logging it', async () => {
    await call('Authenticate', { keyHash: 'a'.repeat(64) }, 'not <safe> {at all}').catch(() => {});
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'grpc call' && l.method === 'Authenticate');
    expect(logged.at(-1).requestId).to.match(/^[0-9a-f-]{36}$/);
  });

  it('serves Prometheus metrics: gRPC calls by method and code, outbox backlog, scheduler lateness', async () => {
    const site = await h.newSite();
    const due = new Date(Date.now() + 200).toISOString();
    const body = { title: 'Later', body: 'Soon', link: 'https://example.org/', topics: ['news'], status: 'published', scheduleMode: 'scheduled', scheduleDate: due };
    await call('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' }).catch(() => {});
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = await metrics();
      if (/^campaign_scheduler_lateness_seconds_count\{webpush_service="campaign"\} [1-9]/m.test(text)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(text).to.match(/^grpc_server_handled_total\{grpc_service="campaign\.v1\.CampaignService",grpc_method="CreateCampaign",grpc_code="OK",webpush_service="campaign"\} [1-9]/m);
    expect(text).to.match(/^grpc_server_handling_seconds_count\{[^}]*grpc_method="CreateCampaign"[^}]*\} [1-9]/m);
    expect(text).to.match(/^grpc_server_handled_total\{[^}]*grpc_method="Authenticate",grpc_code="UNAUTHENTICATED"[^}]*\} 1$/m);
    // Without Kafka nothing is published: every dispatched campaign is still in the outbox.
    expect(text).to.match(/^campaign_outbox_backlog\{webpush_service="campaign"\} [1-9]\d*$/m);
    expect(Number(/^campaign_outbox_oldest_age_seconds\{webpush_service="campaign"\} (\S+)$/m.exec(text)?.[1])).to.be.greaterThan(0);
    // The scheduler runs every 50 ms: nothing stays overdue.
    expect(text).to.match(/^campaign_scheduler_overdue_seconds\{webpush_service="campaign"\} 0$/m);
    expect(text).to.match(/^db_pool_connections\{pool="interactive",webpush_service="campaign"\} [1-9]\d*$/m);
    expect(text).to.match(/^db_pool_waiting_clients\{pool="interactive",webpush_service="campaign"\} 0$/m);
    expect(text).to.match(/^db_pool_max_connections\{pool="interactive",webpush_service="campaign"\} 10$/m);
    expect(text).to.match(/^db_pool_max_connections\{pool="bulk",webpush_service="campaign"\} 2$/m);
    expect(text).to.match(/^campaign_scheduler_lateness_seconds_count\{webpush_service="campaign"\} [1-9]/m);
    expect(text).to.not.include('kafka_consumer_group_lag{');
  });

  it('shows a scheduled campaign left undispatched (no scheduler running) as overdue', async () => {
    // Only this instance, without a scheduler, may run: the other would dispatch the campaign.
    await service.stop();
    service = await h.startInstance({ SCHEDULER_ENABLED: 'false' });
    client.close();
    client = clientOf(service);
    const site = await h.newSite();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const body = { title: 'Later', body: 'Soon', link: 'https://example.org/', topics: ['news'], status: 'published', scheduleMode: 'scheduled', scheduleDate: later };
    const created = await call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' });
    await h.pool.query(`UPDATE campaign.campaigns SET schedule_date = now() - interval '10 minutes' WHERE id = $1`, [created.id]);
    const overdue = Number(/^campaign_scheduler_overdue_seconds\{webpush_service="campaign"\} (\S+)$/m.exec(await metrics())?.[1]);
    expect(overdue).to.be.within(600, 660);
  });

  it('answers 404 for anything but GET /metrics on the metrics listener', async () => {
    expect((await fetch(`http://127.0.0.1:${service.metricsPort}/`)).status).to.equal(404);
    expect((await fetch(`http://127.0.0.1:${service.metricsPort}/metrics`, { method: 'POST' })).status).to.equal(404);
  });
});
