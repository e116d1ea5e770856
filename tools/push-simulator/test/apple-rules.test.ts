// The simulator as Apple's web push service (`apple: true`): every VAPID problem answers 403
// {"reason":"BadJwtToken"}, and so does a subject Apple does not take as a contact, which other
// push services accept.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../src/index.js';
import { newAppServer, postRaw, vapidJwt, webPushRequest } from './support.js';

describe('push simulator: as Apple\'s push service', () => {
  let apple: PushSimulator;
  let other: PushSimulator;

  before(async () => {
    apple = await startPushSimulator({ apple: true, tls: false });
    other = await startPushSimulator({ tls: false });
  });
  after(async () => {
    await apple.close();
    await other.close();
  });

  const push = async (sim: PushSimulator, subject: string) => {
    const app = newAppServer(subject);
    const sub = sim.createSubscription(app.publicKey);
    const res = await postRaw(sub.endpoint, webPushRequest(sub, 'hello', app), sim);
    return { status: res.status, reason: res.status === 201 ? undefined : JSON.parse(res.body).reason };
  };

  it('accepts a mailto: address or an https: URL at a public domain, like any push service', async () => {
    for (const subject of ['mailto:push@example.com', 'https://push.example.net']) {
      expect(await push(apple, subject), subject).to.deep.equal({ status: 201, reason: undefined });
    }
  });

  it('refuses an address or host at localhost or without a dot with 403 BadJwtToken, which another push service accepts', async () => {
    for (const subject of ['mailto:push@localhost', 'mailto:push@intranet', 'https://app.localhost']) {
      expect(await push(apple, subject), subject).to.deep.equal({ status: 403, reason: 'BadJwtToken' });
      expect((await push(other, subject)).status, subject).to.equal(201);
    }
  });

  it('answers every other JWT problem 403 BadJwtToken too: a wrong audience, an exp over a day ahead', async () => {
    const app = newAppServer('mailto:push@example.com');
    const sub = apple.createSubscription(app.publicKey);
    const now = Math.floor(Date.now() / 1000);
    const accepted = apple.received().length;
    for (const claims of [{ aud: 'https://web.push.apple.com', exp: now + 3600, sub: app.subject }, { aud: apple.origin, exp: now + 2 * 86_400, sub: app.subject }]) {
      const request = webPushRequest(sub, 'x', app);
      const res = await postRaw(sub.endpoint, { ...request, headers: { ...request.headers, Authorization: `vapid t=${vapidJwt(app, claims)}, k=${app.publicKey}` } }, apple);
      expect([res.status, JSON.parse(res.body).reason], JSON.stringify(claims)).to.deep.equal([403, 'BadJwtToken']);
    }
    expect(apple.received(), 'nothing refused is stored').to.have.length(accepted);
  });
});
