import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type https from 'node:https';
import webpush from 'web-push';
import { engagementFactor, inPeak, peakHour, startPushSimulator, subscriptionIdOf, type DeviceOptions, type PushSimulator } from '../src/index.js';
import { agentFor, newAppServer, postRaw, pushOptions, vapidJwt, webPushRequest } from './support.js';

interface TrackingServer {
  url: string;
  events: { type: string; token: string }[];
  status: number;
  close(): Promise<void>;
}

/** Stands in for the public tracking endpoint (POST /public/v1/events → 202). */
async function startTrackingServer(): Promise<TrackingServer> {
  const events: { type: string; token: string }[] = [];
  const tracking: Partial<TrackingServer> = { events, status: 202 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/public/v1/events' && req.headers['content-type'] === 'application/json') {
        events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(tracking.status!).end();
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tracking.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tracking.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return tracking as TrackingServer;
}

describe('push simulator: sink mode', () => {
  let sim: PushSimulator;
  let agent: https.Agent;
  const app = newAppServer();

  before(async () => {
    sim = await startPushSimulator({ mode: 'sink', sinkSampleEvery: 10 });
    agent = agentFor(sim);
  });

  after(async () => {
    agent.destroy();
    await sim.close();
  });

  it('accepts and counts every push but decrypts only one in N', async () => {
    const sub = sim.createSubscription(app.publicKey);
    for (let i = 0; i < 30; i++) {
      const res = await webpush.sendNotification(sub, `sink ${i}`, pushOptions(app, agent));
      expect(res.statusCode).to.equal(201);
    }
    const stats = sim.stats();
    expect(stats.accepted).to.equal(30);
    expect(stats.decrypted).to.equal(3);
    expect(sim.received().map((m) => m.payload)).to.deep.equal(['sink 0', 'sink 10', 'sink 20']);
  });

  it('verifies each distinct Authorization once and still judges the claims', async () => {
    sim.reset();
    const sub = sim.createSubscription(app.publicKey);
    const reused = webPushRequest(sub, 'one', app).headers.Authorization;
    for (let i = 0; i < 5; i++) {
      const request = webPushRequest(sub, `reuse ${i}`, app);
      const res = await postRaw(sub.endpoint, { headers: { ...request.headers, Authorization: reused }, body: request.body }, sim);
      expect(res.status).to.equal(201);
    }
    expect(sim.stats().vapid).to.deep.equal({ verifications: 1, distinctAuthorizations: 1 });

    const badAud = vapidJwt(app, { aud: 'https://elsewhere.example', exp: Math.floor(Date.now() / 1000) + 600, sub: 'mailto:a@b.c' });
    for (let i = 0; i < 2; i++) {
      const request = webPushRequest(sub, 'x', app);
      const res = await postRaw(sub.endpoint, { headers: { ...request.headers, Authorization: `vapid t=${badAud}, k=${app.publicKey}` }, body: request.body }, sim);
      expect(res.status).to.equal(403);
    }
    expect(sim.stats().vapid.verifications).to.equal(2);
    expect(sim.stats().rejected.byReason['bad-aud']).to.equal(2);
  });

  it('accepts pushes for subscription ids it never issued (seeded audiences) and counts them', async () => {
    sim.reset();
    const sub = sim.createSubscription(app.publicKey);
    const request = webPushRequest(sub, 'seeded', app);
    const res = await postRaw(`${sim.origin}/push/seeded-subscriber-1`, request, sim);
    expect(res.status).to.equal(201);
    expect(sim.stats().unknownAccepted).to.equal(1);
    expect(sim.stats().decrypted).to.equal(0);
  });

  it('still answers 410 for an expired subscription', async () => {
    sim.reset();
    const sub = sim.createSubscription(app.publicKey);
    sim.expireSubscription(sub.id);
    const res = await postRaw(sub.endpoint, webPushRequest(sub, 'gone', app), sim);
    expect(res.status).to.equal(410);
    expect(sim.stats().afterExpiry).to.equal(1);
  });
});

describe('push simulator: device mode', () => {
  let tracking: TrackingServer;
  const app = newAppServer();

  before(async () => {
    tracking = await startTrackingServer();
  });

  beforeEach(() => {
    tracking.events.length = 0;
    tracking.status = 202;
  });

  after(async () => {
    await tracking.close();
  });

  async function deliverAll(device: DeviceOptions, count: number) {
    const sim = await startPushSimulator({ trackingBaseUrl: tracking.url, device });
    const agent = agentFor(sim);
    try {
      const sub = sim.createSubscription(app.publicKey);
      for (let i = 0; i < count; i++) {
        await webpush.sendNotification(sub, JSON.stringify({ v: 1, id: 'c', title: 't', token: `tok-${i}` }), pushOptions(app, agent));
      }
      await sim.whenDeviceIdle(15_000);
      return { stats: sim.stats(), received: sim.received() };
    } finally {
      agent.destroy();
      await sim.close();
    }
  }

  it('reports impressions and clicks at the configured rates, repeatably for a seed', async () => {
    const { stats, received } = await deliverAll({ impressionRate: 0.6, clickRate: 0.5, seed: 1234 }, 100);
    const impressions = tracking.events.filter((e) => e.type === 'impression').map((e) => e.token);
    const clicks = tracking.events.filter((e) => e.type === 'click').map((e) => e.token);
    expect(stats.device).to.deep.include({ impressionsSent: impressions.length, clicksSent: clicks.length, errors: 0 });
    expect(impressions.length).to.be.within(40, 80);
    expect(clicks.length).to.be.within(Math.floor(impressions.length * 0.25), Math.ceil(impressions.length * 0.75));
    for (const token of clicks) expect(impressions).to.include(token);
    expect(received.every((m) => m.delivered)).to.equal(true);

    const firstRun = [...tracking.events].sort((a, b) => `${a.type}${a.token}`.localeCompare(`${b.type}${b.token}`));
    tracking.events.length = 0;
    await deliverAll({ impressionRate: 0.6, clickRate: 0.5, seed: 1234 }, 100);
    const secondRun = [...tracking.events].sort((a, b) => `${a.type}${a.token}`.localeCompare(`${b.type}${b.token}`));
    expect(secondRun).to.deep.equal(firstRun);
  });

  it('with impressionRate 1 and clickRate 0, every message gives exactly one impression and no click', async () => {
    const { stats } = await deliverAll({ impressionRate: 1, clickRate: 0, delayMs: 5 }, 10);
    expect(tracking.events.map((e) => e.token).sort()).to.deep.equal(Array.from({ length: 10 }, (_, i) => `tok-${i}`).sort());
    expect(tracking.events.every((e) => e.type === 'impression')).to.equal(true);
    expect(stats.device).to.deep.include({ impressionsSent: 10, clicksSent: 0 });
  });

  it('when the tracking endpoint refuses, then the failures are counted, not retried', async () => {
    tracking.status = 503;
    const { stats } = await deliverAll({ impressionRate: 1, clickRate: 1 }, 3);
    expect(stats.device).to.deep.include({ impressionsSent: 0, clicksSent: 0, errors: 3 });
    expect(tracking.events).to.have.length(3);
  });

  it('with an hourly population, each device engages in its peak hours only (offPeak 0), its hours hidden in its subscription id', async () => {
    const hourly = { seed: 7, width: 3, offPeak: 0 };
    const sim = await startPushSimulator({ trackingBaseUrl: tracking.url, device: { impressionRate: 1, clickRate: 1, hourly } });
    const agent = agentFor(sim);
    const subs = Array.from({ length: 48 }, () => sim.createSubscription(app.publicKey));
    const hour = new Date().getUTCHours();
    try {
      for (const [i, sub] of subs.entries()) {
        await webpush.sendNotification(sub, JSON.stringify({ v: 1, id: 'c', title: 't', token: `tok-${i}` }), pushOptions(app, agent));
      }
      await sim.whenDeviceIdle(15_000);
    } finally {
      agent.destroy();
      await sim.close();
    }
    // A push sent across the top of an hour may be judged by either hour.
    const seen = new Set(tracking.events.filter((e) => e.type === 'impression').map((e) => Number(e.token.slice(4))));
    for (const [i, sub] of subs.entries()) {
      const id = subscriptionIdOf(sub.endpoint);
      if (new Date().getUTCHours() === hour) expect(seen.has(i), `device ${i}, peak at ${peakHour(hourly, id)}`).to.equal(inPeak(hourly, id, hour));
    }
  });

  it('draws each device a peak hour uniformly over the day, the same for the same seed', () => {
    const population = { seed: 1 };
    const counts = new Array(24).fill(0);
    for (let i = 0; i < 24_000; i++) counts[peakHour(population, `sub-${i}`)]++;
    for (const n of counts) expect(Math.abs(n - 1000)).to.be.below(4 * Math.sqrt(1000));
    expect(peakHour(population, 'a')).to.equal(peakHour({ seed: 1 }, 'a'));
    const p = peakHour(population, 'a');
    expect(engagementFactor(population, 'a', new Date(Date.UTC(2026, 0, 1, p)))).to.equal(1);
    expect(engagementFactor(population, 'a', new Date(Date.UTC(2026, 0, 1, (p + 1) % 24)))).to.equal(1);
    expect(engagementFactor(population, 'a', new Date(Date.UTC(2026, 0, 1, (p + 2) % 24)))).to.equal(0.2);
    expect(subscriptionIdOf('https://push.example/wpush/v2/abc_DEF')).to.equal('abc_DEF');
  });

  it('refuses device mode without a tracking URL', async () => {
    const err = await startPushSimulator({ device: { impressionRate: 1, clickRate: 0 } }).then(() => undefined, (e: Error) => e);
    expect(err?.message).to.match(/trackingBaseUrl/);
  });
});
