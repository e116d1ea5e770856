import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compiledPath, ensureBuilt } from '../../../../scripts/lib/build-output.js';
import { createEncryptPool, EncryptPoolError, type EncryptPool, type SubscriptionKeys } from '../../src/encryption/pool.js';
import { createTestSubscriber, decryptPush, type TestSubscriber } from '../support/rfc8291.js';

const raw = (s: TestSubscriber): SubscriptionKeys => ({ p256dhRaw: Buffer.from(s.p256dh, 'base64url'), authRaw: Buffer.from(s.auth, 'base64url') });

describe('encryption pool', () => {
  const payload = JSON.stringify({ v: 1, id: 'c0ffee', title: 'Soldes', body: 'Jusqu’à −50 % ✓', url: 'https://example.com/?utm_source=push' });

  describe('with working workers', () => {
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

    it('takes keys as raw bytes as well as base64url, mixed in one batch', async () => {
      const subscribers = Array.from({ length: 40 }, () => createTestSubscriber());
      const subs = subscribers.map((s, i) => (i % 2 === 0 ? raw(s) : { p256dh: s.p256dh, auth: s.auth }));
      const bodies = await pool.encryptBatch(payload, subs);
      bodies.forEach((body, i) => expect(decryptPush(body, subscribers[i]).toString()).to.equal(payload));
    });

    it('when one subscription has unusable keys, then only that one gets an empty body', async () => {
      const subscribers = Array.from({ length: 12 }, () => createTestSubscriber());
      const subs: SubscriptionKeys[] = subscribers.map((s) => ({ p256dh: s.p256dh, auth: s.auth }));
      const good = subs[0] as { p256dh: string; auth: string };
      subs[1] = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: good.auth }; // not on the curve
      subs[3] = { p256dh: good.p256dh, auth: 'c2hvcnQ' }; // 5 bytes
      subs[5] = { p256dh: good.p256dh, auth: Buffer.alloc(17, 1).toString('base64url') };
      subs[7] = { p256dh: `${good.p256dh.slice(0, 80)}!!!!!!!`, auth: good.auth }; // not base64url
      subs[9] = { p256dhRaw: Buffer.from(good.p256dh, 'base64url').subarray(0, 33), authRaw: Buffer.from(good.auth, 'base64url') };
      subs[11] = { p256dhRaw: Buffer.from(good.p256dh, 'base64url'), authRaw: Buffer.alloc(32) };
      const bodies = await pool.encryptBatch(payload, subs);
      expect(bodies.map((b) => b.length === 0)).to.deep.equal([false, true, false, true, false, true, false, true, false, true, false, true]);
      for (const i of [0, 2, 4, 6, 8, 10]) expect(decryptPush(bodies[i], subscribers[i]).toString()).to.equal(payload);
    });

    it('when subscriptions carry their own payloads, then each decrypts to its own', async () => {
      const subscribers = Array.from({ length: 40 }, () => createTestSubscriber());
      const subs = subscribers.map((s, i) => ({ p256dh: s.p256dh, auth: s.auth, payload: i % 3 === 0 ? undefined : `token-${i}-✓`.repeat(i) }));
      const bodies = await pool.encryptBatch(payload, subs);
      bodies.forEach((body, i) => expect(decryptPush(body, subscribers[i]).toString()).to.equal(subs[i].payload ?? payload));
    });

    it('refuses only the subscription whose plaintext exceeds 3993 bytes', async () => {
      const subscribers = Array.from({ length: 3 }, () => createTestSubscriber());
      const sizes = [3993, 3994, 10];
      const subs = subscribers.map((s, i) => ({ p256dh: s.p256dh, auth: s.auth, payload: 'é'.repeat(sizes[i] / 2) + 'x'.repeat(sizes[i] % 2) }));
      const bodies = await pool.encryptBatch(payload, subs);
      expect(bodies.map((b) => b.length)).to.deep.equal([4096, 0, 113]);
    });

    it('answers an empty batch with no bodies', async () => {
      expect(await pool.encryptBatch(payload, [])).to.deep.equal([]);
    });
  });

  it("when an urgent batch arrives behind a queued one, then a free worker takes the urgent batch's chunks first", async () => {
    // One worker, chunks of 4: the campaign's first chunk is in progress, its nine others queued.
    const pool = createEncryptPool({ size: 1, chunkSize: 4 });
    try {
      const subscribers = Array.from({ length: 44 }, () => createTestSubscriber());
      const settled: string[] = [];
      const campaign = pool.encryptBatch(payload, subscribers.slice(0, 40)).then((bodies) => (settled.push('campaign'), bodies));
      const urgent = pool.encryptBatch(payload, subscribers.slice(40), { urgent: true }).then((bodies) => (settled.push('urgent'), bodies));
      const [campaignBodies, urgentBodies] = await Promise.all([campaign, urgent]);
      expect(settled).to.deep.equal(['urgent', 'campaign']);
      urgentBodies.forEach((body, i) => expect(decryptPush(body, subscribers[40 + i]).toString()).to.equal(payload));
      campaignBodies.forEach((body, i) => expect(decryptPush(body, subscribers[i]).toString()).to.equal(payload));
    } finally {
      await pool.close();
    }
  });

  it('transfers each chunk\'s buffers to the worker instead of copying them', async () => {
    const posted: { message: unknown; transfer: readonly unknown[] }[] = [];
    const original = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: readonly never[]) {
      posted.push({ message, transfer: transfer ?? [] });
      return original.call(this, message, transfer);
    };
    const pool = createEncryptPool({ size: 1, chunkSize: 4 });
    try {
      const subscribers = Array.from({ length: 6 }, () => createTestSubscriber());
      await pool.encryptBatch(payload, subscribers.map((s, i) => ({ p256dh: s.p256dh, auth: s.auth, payload: `#${i}` })));
    } finally {
      Worker.prototype.postMessage = original;
      await pool.close();
    }
    expect(posted).to.have.length(2);
    for (const { message, transfer } of posted) {
      const { keys, plaintexts, plaintextLengths } = message as { keys: ArrayBuffer; plaintexts: ArrayBuffer; plaintextLengths: Uint32Array };
      expect(transfer).to.have.members([keys, plaintexts, plaintextLengths.buffer]);
      expect([keys.byteLength, plaintexts.byteLength, plaintextLengths.byteLength]).to.deep.equal([0, 0, 0]); // detached: moved, not copied
    }
  });

  it('loads its worker as plain JavaScript: the worker and its modules import only node: modules and .js files beside them', () => {
    const dir = new URL('../../src/encryption/', import.meta.url);
    const scripts = readdirSync(dir).filter((f) => f.endsWith('.js'));
    expect(scripts).to.include.members(['worker.js', 'rfc8291.js', 'protocol.js']);
    const seen = new Set<string>();
    for (const file of scripts) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      expect(source.startsWith('// @ts-check\n'), `${file} is type-checked`).to.equal(true);
      // Static imports start a line; dynamic ones would show as import(.
      expect(source, file).not.to.match(/\bimport\s*\(/);
      for (const [, specifier] of source.matchAll(/^(?:import|export)\s(?:[^;]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm)) {
        const ok = specifier.startsWith('node:') || (/^\.\/[\w-]+\.js$/.test(specifier) && scripts.includes(specifier.slice(2)));
        expect(ok, `${file} imports ${specifier}`).to.equal(true);
        seen.add(specifier);
      }
    }
    expect([...seen]).to.include.members(['node:crypto', 'node:worker_threads', './rfc8291.js', './protocol.js']);
  });

  describe('when a worker crashes', () => {
    let pool: EncryptPool;
    before(() => {
      pool = createEncryptPool({ size: 2, chunkSize: 4, workerUrl: new URL('./support/crashing-worker.js', import.meta.url) });
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

  for (const engine of ['native', 'javascript'] as const) {
    it(`a worker (${engine}) hands each chunk's request buffers back with its reply, so they are freed at once`, async function () {
      this.timeout(20_000);
      await ensureBuilt();
      const pool = createEncryptPool({
        size: 1,
        chunkSize: 4,
        engine,
        addonUrl: pathToFileURL(compiledPath('packages/push/native/rfc8291.node')),
        workerUrl: new URL('./support/spent-buffers-worker.js', import.meta.url),
      });
      try {
        const subscribers = Array.from({ length: 10 }, () => createTestSubscriber());
        // One shared plaintext, then each its own (the request then carries their lengths too).
        await pool.encryptBatch(payload, subscribers);
        const bodies = await pool.encryptBatch(payload, subscribers.map((s, i) => ({ ...s, payload: `${payload} ${i}` })));
        bodies.forEach((body, i) => expect(decryptPush(body, subscribers[i]).toString()).to.equal(`${payload} ${i}`));
      } finally {
        await pool.close();
      }
    });
  }

  it('when the pool is closed, then pending and new batches are rejected', async () => {
    const pool = createEncryptPool({ size: 1, chunkSize: 1 });
    const subscribers = Array.from({ length: 50 }, () => createTestSubscriber());
    const pending = pool.encryptBatch(payload, subscribers).then(() => null, (err: unknown) => err);
    await pool.close();
    expect(await pending).to.be.instanceOf(EncryptPoolError);
    const after = await pool.encryptBatch(payload, subscribers).then(() => null, (err: unknown) => err);
    expect((after as Error).message).to.equal('encryption pool is closed');
  });

  it('refuses a size or chunk size that is not a positive integer', () => {
    expect(() => createEncryptPool({ size: 0 })).to.throw(RangeError, /size/);
    expect(() => createEncryptPool({ size: 1.5 })).to.throw(RangeError, /size/);
    expect(() => createEncryptPool({ chunkSize: 0 })).to.throw(RangeError, /chunkSize/);
  });
});
