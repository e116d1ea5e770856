// The sender against our push-service simulator (tools/push-simulator): an independent
// implementation of the receiving side — VAPID verification and aes128gcm decryption included.
import { expect } from 'chai';
import webpush from 'web-push';
import { startPushSimulator } from '../../../tools/push-simulator/src/index.js';
import { createPushSender, type PushSender } from '../src/sender.js';
import { createVapidHeaderCache } from '../src/vapid.js';

describe('push sender against the push-service simulator', () => {
  let simulator: Awaited<ReturnType<typeof startPushSimulator>>;
  let sender: PushSender;
  const keys = webpush.generateVAPIDKeys();

  before(async () => {
    simulator = await startPushSimulator({ host: '127.0.0.1', port: 0, tls: true, mode: 'record' });
    sender = createPushSender({ ca: simulator.caCertPem, sleep: async () => {}, testHosts: ['127.0.0.1'] });
  });
  after(async () => {
    await sender?.close();
    await simulator?.close();
  });

  it('delivers what the simulated browsers decrypt, and an expired subscription comes back as expired', async () => {
    const subs = Array.from({ length: 20 }, () => simulator.createSubscription(keys.publicKey));
    simulator.expireSubscription(subs[3].id);
    const payload = JSON.stringify({ v: 1, id: 'c1', title: 'Hi', body: 'there', token: 'tok' });
    const results = await sender.sendBatch({
      payload,
      ttl: 600,
      urgency: 'normal',
      topic: 'c1',
      vapid: createVapidHeaderCache({ subject: 'mailto:push@example.com', ...keys }),
      subscriptions: subs.map((s) => ({ id: s.id, endpoint: s.endpoint, ...s.keys })),
    });
    expect(results.filter((r) => r.outcome === 'sent')).to.have.length(19);
    expect(results[3]).to.include({ outcome: 'expired', attempts: 1 });
    for (const [i, s] of subs.entries()) {
      if (i === 3) continue;
      const [message] = simulator.received(s.id);
      expect(message.payload).to.equal(payload);
      expect(message.headers).to.include({ ttl: 600, urgency: 'normal', topic: 'c1' });
    }
    const stats = simulator.stats();
    expect(stats).to.deep.include({ accepted: 19, decrypted: 19, byStatus: { 201: 19, 410: 1 }, http2Sessions: 1 });
    expect(stats.rejected).to.deep.equal({ total: 1, byReason: { expired: 1 } });
    expect(stats.vapid).to.deep.equal({ verifications: 19, distinctAuthorizations: 1 });
  });
});
