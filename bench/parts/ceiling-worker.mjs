// One core's worth of the ceiling: web-push's encrypt (aes128gcm, one P-256 ECDH per message)
// in a tight loop for a fixed time. Plain JS so it runs in a worker without a loader.
//
// It also reports the CPU time this thread spent in the timed loop, from the kernel's own
// accounting of this thread (/proc/thread-self/stat, utime + stime): Node 20 has no
// process.threadCpuUsage (Node 23.9+), and process.cpuUsage() in a worker is the whole
// process's (every worker and the main thread). The platform's CPU per push comes from the same
// kernel counters (/proc/<pid>/stat), so encrypt-only and platform costs are measured alike;
// the counters tick in 1/100 s, under 1 % of a run of a few seconds per thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import webpush from 'web-push';

/** CPU seconds of the calling thread, or NaN where /proc is not there. */
function threadCpuSeconds() {
  try {
    const raw = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const { payload, keys, durationMs, warmup } = workerData;
for (let i = 0; i < warmup; i++) webpush.encrypt(keys[i % keys.length].p256dh, keys[i % keys.length].auth, payload, 'aes128gcm');
parentPort.postMessage({ type: 'ready' });
parentPort.once('message', () => {
  const cpu0 = threadCpuSeconds();
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
  const ms = performance.now() - t0;
  parentPort.postMessage({ type: 'done', count: n, ms, cpuSeconds: threadCpuSeconds() - cpu0 });
});
