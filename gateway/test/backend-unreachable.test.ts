// What grpc-js really reports for a backend that cannot be reached, against the gateway's
// mapping (grpc/status-map.ts): a call that never left the gateway is 503 with Retry-After; a
// call that reached a service and then timed out stays the endpoint's 500 (a create may have
// happened). Real grpc-js channels against real sockets, no stubbed errors.
import net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { createBackends, type Backends } from '../src/grpc/clients.js';
import { neverReachedBackend, toHttpError } from '../src/grpc/status-map.js';
import { bindServer, loadCampaignProto } from '@webpush/shared/grpc.js';

const TOKEN = 'test-internal-token-0123456789abcdef';
const ctx = { requestId: 'req-unreachable' };
const createReq = { siteId: 's', bodyJson: '{}', idempotencyKey: '' };

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('the call succeeded');
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('gateway: backend unreachable vs. failed after sending (real grpc-js)', () => {
  const opened: Backends[] = [];
  const backendsFor = (target: string, deadlineMs: number) => {
    const b = createBackends({ campaign: target, audience: target }, deadlineMs, TOKEN);
    opened.push(b);
    return b;
  };
  after(() => opened.forEach((b) => b.close()));

  it('when nothing listens on the port (connection refused), then 503 with Retry-After on every call, also create', async () => {
    const backends = backendsFor(`127.0.0.1:${await closedPort()}`, 2000);
    const calls: [Promise<unknown>, string][] = [
      [backends.campaigns.createCampaign(createReq, ctx), 'Error creating campaign'],
      [backends.campaigns.listCampaigns({ siteId: 's', bodyJson: '{}' }, ctx), 'Internal server error'],
      [backends.campaigns.authenticate('h', ctx), 'Internal server error'],
      [backends.audience.listTopics('s', ctx), 'Internal server error'],
    ];
    for (const [call, generic] of calls) {
      const err = await failureOf(call);
      const mapped = toHttpError(err, generic);
      expect([mapped.status, mapped.headers['Retry-After']], String((err as Error).message)).to.deep.equal([503, '5']);
      expect(mapped.message).to.equal('Service temporarily unavailable. The request was not processed; retry after Retry-After seconds');
    }
  });

  it('when the port accepts TCP but never speaks HTTP/2, then the deadline passes while waiting for a connection: 503', async () => {
    const silent = net.createServer(() => {});
    const sockets = new Set<net.Socket>();
    silent.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const backends = backendsFor(`127.0.0.1:${(silent.address() as net.AddressInfo).port}`, 300);
      const err = await failureOf(backends.campaigns.createCampaign(createReq, ctx));
      expect((err as grpc.ServiceError).code).to.equal(grpc.status.DEADLINE_EXCEEDED);
      expect(neverReachedBackend(err), (err as Error).message).to.equal(true);
      expect(toHttpError(err, 'Error creating campaign').status).to.equal(503);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('when the service received the create and did not answer in time, then 500 Error creating campaign (it may have been created)', async () => {
    const server = new grpc.Server();
    const { CampaignService } = loadCampaignProto().campaign.v1;
    const hang = () => {}; // never answers: the request reached the handler
    server.addService(CampaignService.service, { CreateCampaign: hang, ListCampaigns: hang, GetCampaign: hang, DeleteCampaign: hang, Authenticate: hang });
    const port = await bindServer(server, '127.0.0.1', 0);
    try {
      const backends = backendsFor(`127.0.0.1:${port}`, 300);
      const err = await failureOf(backends.campaigns.createCampaign(createReq, ctx));
      expect((err as grpc.ServiceError).code).to.equal(grpc.status.DEADLINE_EXCEEDED);
      expect(neverReachedBackend(err), (err as Error).message).to.equal(false);
      const mapped = toHttpError(err, 'Error creating campaign');
      expect([mapped.status, mapped.message, mapped.headers['Retry-After']]).to.deep.equal([500, 'Error creating campaign', undefined]);
    } finally {
      server.forceShutdown();
    }
  });

  it('when the service is of the previous release and does not know the method (a rolling upgrade), then 503 with Retry-After', async () => {
    const server = new grpc.Server();
    const { CampaignService } = loadCampaignProto().campaign.v1;
    const hang = () => {};
    // The previous release's campaign service: every method but UpdateDraft, which grpc-js then answers itself.
    server.addService(CampaignService.service, { CreateCampaign: hang, ListCampaigns: hang, GetCampaign: hang, DeleteCampaign: hang, Authenticate: hang });
    const port = await bindServer(server, '127.0.0.1', 0);
    try {
      const backends = backendsFor(`127.0.0.1:${port}`, 2000);
      const err = await failureOf(backends.campaigns.updateDraft({ siteId: 's', campaignId: 'c', bodyJson: '{}' }, ctx));
      expect((err as grpc.ServiceError).code).to.equal(grpc.status.UNIMPLEMENTED);
      const mapped = toHttpError(err, 'Error creating campaign');
      expect([mapped.status, mapped.headers['Retry-After']], (err as Error).message).to.deep.equal([503, '5']);
    } finally {
      server.forceShutdown();
    }
  });

  it('when the connection drops after the call was sent, then 500 (the outcome is unknown)', async () => {
    const server = new grpc.Server();
    const { CampaignService } = loadCampaignProto().campaign.v1;
    let received!: () => void;
    const reached = new Promise<void>((r) => (received = r));
    const hang = () => received();
    server.addService(CampaignService.service, { CreateCampaign: hang, ListCampaigns: hang, GetCampaign: hang, DeleteCampaign: hang, Authenticate: hang });
    const port = await bindServer(server, '127.0.0.1', 0);
    const backends = backendsFor(`127.0.0.1:${port}`, 5000);
    const call = failureOf(backends.campaigns.createCampaign(createReq, ctx));
    await reached;
    server.forceShutdown();
    const err = await call;
    expect(neverReachedBackend(err), (err as Error).message).to.equal(false);
    expect(toHttpError(err, 'Error creating campaign').status).to.equal(500);
  });
});
