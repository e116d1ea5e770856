import { expect } from 'chai';
import type https from 'node:https';
import webpush from 'web-push';
import { startPushSimulator, type PushSimulator, type SimulatedSubscription } from '../src/index.js';
import { agentFor, newAppServer, postRaw, pushOptions, vapidJwt, webPushRequest, type AppServer } from './support.js';

describe('push simulator: receiving pushes (RFC 8030/8291/8292)', () => {
  let sim: PushSimulator;
  let agent: https.Agent;
  let app: AppServer;
  let sub: SimulatedSubscription;

  before(async () => {
    sim = await startPushSimulator();
    agent = agentFor(sim);
    app = newAppServer();
  });

  beforeEach(() => {
    sim.reset();
    sub = sim.createSubscription(app.publicKey);
  });

  after(async () => {
    agent.destroy();
    await sim.close();
  });

  const nowSec = () => Math.floor(Date.now() / 1000);
  const claims = (overrides: Record<string, unknown> = {}) => ({ aud: sim.origin, exp: nowSec() + 3600, sub: 'mailto:ops@example.test', ...overrides });

  /** `undefined` as a header value removes that header. */
  async function expectRejected(headers: Record<string, string | number | undefined>, status: number, reason: string, body?: Buffer) {
    const request = webPushRequest(sub, '{"token":"t"}', app);
    const merged: Record<string, string | number> = { ...request.headers };
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) delete merged[name];
      else merged[name] = value;
    }
    const res = await postRaw(sub.endpoint, { headers: merged, body: body ?? request.body }, sim);
    expect(res.status, res.body).to.equal(status);
    expect(JSON.parse(res.body).reason).to.equal(reason);
    expect(sim.received()).to.have.length(0);
    expect(sim.stats().rejected.byReason[reason]).to.equal(1);
  }

  it('issues subscriptions with a real P-256 key and a 16-byte auth secret under its origin', () => {
    expect(sub.endpoint).to.equal(`${sim.origin}/push/${sub.id}`);
    expect(sim.origin).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(Buffer.from(sub.keys.p256dh, 'base64url')).to.have.length(65);
    expect(Buffer.from(sub.keys.auth, 'base64url')).to.have.length(16);
    expect(() => sim.createSubscription('not-a-key')).to.throw(TypeError);
  });

  it('when web-push sends a message, then it gets 201 with a Location and the decrypted payload is recorded', async () => {
    const payload = JSON.stringify({ v: 1, id: 'c1', title: 'Hello ✓', token: 'tok-1' });
    const topic = 'a'.repeat(32);
    const res = await webpush.sendNotification(sub, payload, pushOptions(app, agent, { TTL: 120, urgency: 'high', topic }));
    expect(res.statusCode).to.equal(201);
    expect(res.headers.location).to.match(new RegExp(`^${sim.origin}/m/`));
    const [message] = sim.received(sub.id);
    expect(message.payload).to.equal(payload);
    expect(message.subscriptionId).to.equal(sub.id);
    expect(message.headers).to.deep.equal({ ttl: 120, urgency: 'high', topic });
    expect(message.receivedAt).to.be.a('number');
    const stats = sim.stats();
    expect(stats.accepted).to.equal(1);
    expect(stats.decrypted).to.equal(1);
    expect(stats.byStatus['201']).to.equal(1);
    expect(stats.bytes).to.be.greaterThan(86);
    expect(stats.connections).to.be.at.least(1);
  });

  it('when a message repeats a Topic still waiting, then it replaces the earlier one', async () => {
    const options = pushOptions(app, agent, { topic: 'campaign1' });
    await webpush.sendNotification(sub, 'first', options);
    await webpush.sendNotification(sub, 'second', options);
    await webpush.sendNotification(sub, 'untopical', pushOptions(app, agent));
    expect(sim.received(sub.id).map((m) => m.payload)).to.deep.equal(['second', 'untopical']);
    expect(sim.stats().replaced).to.equal(1);
    expect(sim.stats().accepted).to.equal(3);
  });

  it('with keepReplaced, a repeated Topic keeps every copy (still counted as replaced)', async () => {
    const keeping = await startPushSimulator({ keepReplaced: true });
    const keepingAgent = agentFor(keeping);
    try {
      const own = keeping.createSubscription(app.publicKey);
      const options = pushOptions(app, keepingAgent, { topic: 'campaign1' });
      await webpush.sendNotification(own, 'first', options);
      await webpush.sendNotification(own, 'second', options);
      expect(keeping.received(own.id).map((m) => m.payload)).to.deep.equal(['first', 'second']);
      expect(keeping.stats().replaced).to.equal(1);
      expect(keeping.stats().accepted).to.equal(2);
    } finally {
      keepingAgent.destroy();
      await keeping.close();
    }
  });

  it('keeps pushes of different subscriptions apart', async () => {
    const other = sim.createSubscription(app.publicKey);
    await webpush.sendNotification(sub, 'for one', pushOptions(app, agent));
    await webpush.sendNotification(other, 'for other', pushOptions(app, agent));
    expect(sim.received(other.id).map((m) => m.payload)).to.deep.equal(['for other']);
    expect(sim.received()).to.have.length(2);
  });

  it('accepts the legacy "WebPush <jwt>" + Crypto-Key p256ecdsa form', async () => {
    const jwt = vapidJwt(app, claims());
    const request = webPushRequest(sub, 'legacy', app);
    const res = await postRaw(sub.endpoint, {
      headers: { ...request.headers, Authorization: `WebPush ${jwt}`, 'Crypto-Key': `p256ecdsa=${app.publicKey}` },
      body: request.body,
    }, sim);
    expect(res.status).to.equal(201);
    expect(sim.received(sub.id)[0].payload).to.equal('legacy');
  });

  it('when the subscription is unknown, then 404', async () => {
    const request = webPushRequest(sub, 'x', app);
    const res = await postRaw(`${sim.origin}/push/nosuchsubscription`, request, sim);
    expect(res.status).to.equal(404);
    expect(sim.received()).to.have.length(0);
  });

  it('when the signature is forged, then 401 and nothing is recorded', async () => {
    const jwt = vapidJwt(app, claims());
    const [h, c, s] = jwt.split('.');
    const sig = Buffer.from(s, 'base64url');
    sig[10] ^= 0xff;
    await expectRejected({ Authorization: `vapid t=${h}.${c}.${sig.toString('base64url')}, k=${app.publicKey}` }, 401, 'bad-signature');
  });

  it('when the claims were changed after signing, then 401', async () => {
    const [h, , s] = vapidJwt(app, claims()).split('.');
    const forgedClaims = Buffer.from(JSON.stringify(claims({ sub: 'mailto:evil@example.test' }))).toString('base64url');
    await expectRejected({ Authorization: `vapid t=${h}.${forgedClaims}.${s}, k=${app.publicKey}` }, 401, 'bad-signature');
  });

  it('when the JWT is signed by another key given as k, then 403 (k is not the subscription\'s key)', async () => {
    const intruder = newAppServer();
    await expectRejected({ Authorization: `vapid t=${vapidJwt(intruder, claims())}, k=${intruder.publicKey}` }, 403, 'key-mismatch');
  });

  it('when aud is not the push service origin, then 403', async () => {
    const jwt = vapidJwt(app, claims({ aud: 'https://fcm.googleapis.com' }));
    await expectRejected({ Authorization: `vapid t=${jwt}, k=${app.publicKey}` }, 403, 'bad-aud');
  });

  it('when exp is more than 24 h ahead, then 403', async () => {
    const jwt = vapidJwt(app, claims({ exp: nowSec() + 25 * 3600 }));
    await expectRejected({ Authorization: `vapid t=${jwt}, k=${app.publicKey}` }, 403, 'bad-exp');
  });

  it('when exp has passed, then 403', async () => {
    const jwt = vapidJwt(app, claims({ exp: nowSec() - 60 }));
    await expectRejected({ Authorization: `vapid t=${jwt}, k=${app.publicKey}` }, 403, 'expired-jwt');
  });

  it('when sub is neither mailto: nor https:, then 403', async () => {
    const jwt = vapidJwt(app, claims({ sub: 'http://insecure.example' }));
    await expectRejected({ Authorization: `vapid t=${jwt}, k=${app.publicKey}` }, 403, 'bad-sub');
  });

  it('when the JWT alg is not ES256, then 401', async () => {
    const jwt = vapidJwt(app, claims(), { typ: 'JWT', alg: 'HS256' });
    await expectRejected({ Authorization: `vapid t=${jwt}, k=${app.publicKey}` }, 401, 'bad-jwt');
  });

  it('when Authorization is missing, then 401', async () => {
    await expectRejected({ Authorization: undefined }, 401, 'missing-authorization');
  });

  it('when TTL is missing or negative, then 400', async () => {
    await expectRejected({ TTL: undefined }, 400, 'missing-ttl');
    sim.reset();
    await expectRejected({ TTL: '-1' }, 400, 'bad-ttl');
  });

  it('when Urgency is not one of RFC 8030 §5.3, then 400; each of the four is recorded as sent (a campaign\'s urgency is checked here)', async () => {
    await expectRejected({ Urgency: 'urgent' }, 400, 'bad-urgency');
    sim.reset();
    for (const urgency of ['very-low', 'low', 'normal', 'high'] as const) {
      await webpush.sendNotification(sub, urgency, pushOptions(app, agent, { urgency }));
    }
    expect(sim.received(sub.id).map((m) => [m.payload, m.headers.urgency])).to.deep.equal([
      ['very-low', 'very-low'],
      ['low', 'low'],
      ['normal', 'normal'],
      ['high', 'high'],
    ]);
  });

  it('when Content-Encoding is not aes128gcm, then 415', async () => {
    await expectRejected({ 'Content-Encoding': 'aesgcm' }, 415, 'bad-content-encoding');
  });

  it('when the body exceeds 4096 bytes, then 413', async () => {
    const body = Buffer.alloc(4097, 1);
    await expectRejected({ 'Content-Length': body.length }, 413, 'payload-too-large', body);
  });

  it('when the Topic is longer than 32 characters or not base64url, then 400', async () => {
    await expectRejected({ Topic: 'a'.repeat(33) }, 400, 'bad-topic');
    sim.reset();
    await expectRejected({ Topic: 'not/base64' }, 400, 'bad-topic');
  });

  it('when the body was encrypted for another subscription, then 400', async () => {
    const other = sim.createSubscription(app.publicKey);
    const body = webPushRequest(other, 'not for you', app).body;
    await expectRejected({ 'Content-Length': body.length }, 400, 'decryption-failed', body);
  });
});
