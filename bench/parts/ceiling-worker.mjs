// One core's worth of the ceiling: web-push's encrypt (aes128gcm, one P-256 ECDH per message)
// in a tight loop for a fixed time. Plain JS so it runs in a worker without a loader.
import { parentPort, workerData } from 'node:worker_threads';
import webpush from 'web-push';

const { payload, keys, durationMs, warmup } = workerData;
for (let i = 0; i < warmup; i++) webpush.encrypt(keys[i % keys.length].p256dh, keys[i % keys.length].auth, payload, 'aes128gcm');
parentPort.postMessage({ type: 'ready' });
parentPort.once('message', () => {
  const t0 = performance.now();
  const until = t0 + durationMs;
  let n = 0;
  // Bounded by the clock; the check runs every 16 messages.
  while (performance.now() < until) {
    for (let j = 0; j < 16; j++, n++) {
      const k = keys[n % keys.length];
      webpush.encrypt(k.p256dh, k.auth, payload, 'aes128gcm');
    }
  }
  parentPort.postMessage({ type: 'done', count: n, ms: performance.now() - t0 });
});
