// The naive baseline, as its own process: web-push's sendNotification with its defaults (a VAPID
// JWT signed per call, encryption on the event loop, https.globalAgent), `CONCURRENCY` calls in
// flight, to the same simulator. Reads targets from TARGETS_FILE, prints one JSON line.
// The simulator's CA is trusted through NODE_EXTRA_CA_CERTS (set by parts/delivery.ts), as a
// deployment adds a CA, not through the agent's `ca` option: with every root certificate in it,
// https.Agent's getName joined them into a ≈ 200 kB connection key per request, ≈ 3 ms of CPU a
// push, which made the baseline 3–4× slower than web-push really is.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import webpush from 'web-push';

const targets = JSON.parse(readFileSync(process.env.TARGETS_FILE!, 'utf8')) as { endpoint: string; p256dh: string; auth: string }[];
const payload = readFileSync(process.env.PAYLOAD_FILE!, 'utf8');
const concurrency = Number(process.env.CONCURRENCY ?? 100);
const vapid = webpush.generateVAPIDKeys();
webpush.setVapidDetails('mailto:bench@example.com', vapid.publicKey, vapid.privateKey);

let next = 0;
let sent = 0;
let failed = 0;
const statuses: Record<string, number> = {};
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < targets.length) {
      const t = targets[next++];
      try {
        const res = await webpush.sendNotification({ endpoint: t.endpoint, keys: { p256dh: t.p256dh, auth: t.auth } }, payload, { TTL: 3600 });
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        sent++;
      } catch (err) {
        const code = (err as { statusCode?: number }).statusCode ?? 'error';
        statuses[code] = (statuses[code] ?? 0) + 1;
        failed++;
      }
    }
  }),
);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
https.globalAgent.destroy();
process.stdout.write(JSON.stringify({ sent, failed, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, statuses }) + '\n');
