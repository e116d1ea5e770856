import { expect } from 'chai';
import { startPushSimulator } from '../src/index.js';
import { newAppServer, postRaw, webPushRequest } from './support.js';

describe('push simulator: transport options', () => {
  it('with tls: false, it serves plain HTTP and checks aud against its http origin', async () => {
    const sim = await startPushSimulator({ tls: false });
    try {
      expect(sim.origin).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sim.caCertPem).to.equal('');
      const app = newAppServer();
      const sub = sim.createSubscription(app.publicKey);
      const res = await postRaw(sub.endpoint, webPushRequest(sub, 'plain', app), sim);
      expect(res.status, res.body).to.equal(201);
      expect(sim.received(sub.id)[0].payload).to.equal('plain');
    } finally {
      await sim.close();
    }
  });

  it('when openssl is not on PATH, then start fails with a clear message', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const err = await startPushSimulator().then(() => undefined, (e: Error) => e);
      expect(err?.message).to.match(/openssl.*not found/);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('close() can be called twice', async () => {
    const sim = await startPushSimulator({ tls: false });
    await sim.close();
    await sim.close();
  });
});
