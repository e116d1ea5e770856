import { expect } from 'chai';
import { encryptPayload } from '../../src/push/encrypt.js';
import { createEncryptPool, EncryptPoolError, workerScript, type EncryptPool } from '../../src/push/encrypt-pool.js';
import { createTestSubscriber, decryptPush } from './support/rfc8291.js';

describe('push payload encryption', () => {
  const payload = JSON.stringify({ v: 1, id: 'c0ffee', title: 'Soldes', body: 'Jusqu’à −50 % ✓', url: 'https://example.com/?utm_source=push' });

  it('produces an aes128gcm body (one 4096-byte record, sender key as keyid) that the subscriber decrypts', () => {
    const subscriber = createTestSubscriber();
    const body = encryptPayload(payload, subscriber.p256dh, subscriber.auth);
    expect(body.readUInt32BE(16)).to.equal(4096);
    expect(body[20]).to.equal(65);
    expect(decryptPush(body, subscriber).toString()).to.equal(payload);
    expect(decryptPush(encryptPayload(Buffer.from(payload), subscriber.p256dh, subscriber.auth), subscriber).toString()).to.equal(payload);
  });

  it('runs a TypeScript worker as one bundled plain-JS script, without tsx in the worker', async () => {
    const script = await workerScript(new URL('../../src/push/encrypt-worker.ts', import.meta.url));
    expect(script.kind).to.equal('eval');
    const code = script.kind === 'eval' ? script.code : '';
    expect(code).to.include('aes128gcm');
    expect(code).not.to.match(/\brequire\("tsx|from "tsx|\.ts"/);
  });

  describe('worker pool', () => {
    let pool: EncryptPool;
    before(() => {
      pool = createEncryptPool({ size: 2, chunkSize: 16 });
    });
    after(() => pool.close());

    it('encrypts a batch across workers and returns the bodies in subscription order', async () => {
      const subscribers = Array.from({ length: 100 }, () => createTestSubscriber());
      const bodies = await pool.encryptBatch(payload, subscribers);
      expect(bodies).to.have.length(100);
      bodies.forEach((body, i) => expect(decryptPush(body, subscribers[i]).toString()).to.equal(payload));
    });

    it('when one subscription has unusable keys, then only that one gets an empty body', async () => {
      const subscribers = Array.from({ length: 5 }, () => createTestSubscriber());
      const subs = subscribers.map((s) => ({ p256dh: s.p256dh, auth: s.auth }));
      subs[1] = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: subs[1].auth }; // not on the curve
      subs[3] = { p256dh: subs[3].p256dh, auth: 'c2hvcnQ' };
      const bodies = await pool.encryptBatch(payload, subs);
      expect(bodies.map((b) => b.length === 0)).to.deep.equal([false, true, false, true, false]);
      expect(decryptPush(bodies[4], subscribers[4]).toString()).to.equal(payload);
    });

    it('when subscriptions carry their own payloads, then each decrypts to its own', async () => {
      const subscribers = Array.from({ length: 40 }, () => createTestSubscriber());
      const subs = subscribers.map((s, i) => ({ p256dh: s.p256dh, auth: s.auth, payload: i % 3 === 0 ? undefined : `token-${i}` }));
      const bodies = await pool.encryptBatch(payload, subs);
      bodies.forEach((body, i) => expect(decryptPush(body, subscribers[i]).toString()).to.equal(subs[i].payload ?? payload));
    });

    it('answers an empty batch with no bodies', async () => {
      expect(await pool.encryptBatch(payload, [])).to.deep.equal([]);
    });
  });

  describe('when a worker crashes', () => {
    let pool: EncryptPool;
    before(() => {
      pool = createEncryptPool({ size: 2, chunkSize: 4, workerUrl: new URL('./support/crashing-worker.ts', import.meta.url) });
    });
    after(() => pool.close());

    it('rejects the pending batch, replaces the worker and serves the next batch', async () => {
      const subscribers = Array.from({ length: 10 }, () => createTestSubscriber());
      const error = await pool.encryptBatch('crash', subscribers).then(() => null, (err: unknown) => err);
      expect(error).to.be.instanceOf(EncryptPoolError);
      expect((error as Error).message).to.match(/worker crashed/);
      const bodies = await pool.encryptBatch(payload, subscribers);
      bodies.forEach((body, i) => expect(decryptPush(body, subscribers[i]).toString()).to.equal(payload));
      expect(pool.size).to.equal(2);
    });
  });

  it('when the pool is closed, then pending and new batches are rejected', async () => {
    const pool = createEncryptPool({ size: 1, chunkSize: 1 });
    const subscribers = Array.from({ length: 50 }, () => createTestSubscriber());
    const pending = pool.encryptBatch(payload, subscribers).then(() => null, (err: unknown) => err);
    await pool.close();
    expect(await pending).to.be.instanceOf(EncryptPoolError);
    const after = await pool.encryptBatch(payload, subscribers).then(() => null, (err: unknown) => err);
    expect((after as Error).message).to.equal('encryption pool is closed');
  });
});
