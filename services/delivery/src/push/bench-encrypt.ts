// Micro-benchmark of the send path: `npx tsx services/delivery/src/push/bench-encrypt.ts [N]`.
// Prints messages/s for web-push's encrypt on one core, the worker pool on every core, and
// web-push's sendNotification (defaults) against our sender, both posting to a local HTTPS
// sink (h2 offered, HTTP/1.1 allowed) that runs in this same process.
import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import webpush from 'web-push';
import { encryptPayload } from './encrypt.js';
import { createEncryptPool } from './encrypt-pool.js';
import { createPushSender } from './sender.js';
import { createVapidHeaderCache } from './vapid.js';

const N = Number(process.argv[2] ?? 5000);
const CONCURRENCY = 100;
const payload = JSON.stringify({
  v: 1, id: '0f0e0d0c-0b0a-4908-8706-050403020100', title: 'Summer sale: everything must go',
  body: 'Up to 50 % off on thousands of items, today only. Tap to see what is waiting for you.',
  url: 'https://shop.example.com/sale?utm_source=webpush&utm_medium=push&utm_campaign=summer',
  icon: 'https://shop.example.com/icon-192.png', image: 'https://shop.example.com/banner.jpg',
  token: randomBytes(24).toString('base64url'),
});
const subs = Array.from({ length: N }, () => ({
  p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
  auth: randomBytes(16).toString('base64url'),
}));

async function measure(label: string, run: () => Promise<void> | void): Promise<void> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6; // all threads of this process
  console.log(
    `${label.padEnd(46)} ${String(Math.round(N / seconds)).padStart(7)} msg/s   ` +
      `(${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU → ${Math.round(N / cpuSeconds)} msg per CPU-second)`,
  );
}

function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'push-bench-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', path.join(dir, 'k.pem'), '-out', path.join(dir, 'c.pem'), '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return { key: readFileSync(path.join(dir, 'k.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'c.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`N = ${N}, payload ${payload.length} bytes, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  for (let i = 0; i < 200; i += 1) encryptPayload(payload, subs[i].p256dh, subs[i].auth); // warm-up
  await measure('web-push encrypt, one core', () => {
    for (const s of subs) encryptPayload(payload, s.p256dh, s.auth);
  });

  const pool = createEncryptPool();
  await pool.encryptBatch(payload, subs.slice(0, pool.size * 50)); // start and warm the workers
  await measure(`encrypt pool, ${pool.size} workers`, async () => {
    await pool.encryptBatch(payload, subs);
  });
  await pool.close();

  const { key, cert } = selfSignedCertificate();
  let received = 0;
  const sink = http2.createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(201);
      res.end();
    });
  });
  let tlsConnections = 0;
  sink.on('secureConnection', () => (tlsConnections += 1));
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(sink.address() as { port: number }).port}`;
  const vapidKeys = webpush.generateVAPIDKeys();
  const subject = 'mailto:bench@example.com';
  const targets = subs.map((s, i) => ({ id: String(i), endpoint: `${origin}/wpush/v2/${i}`, ...s }));

  // sendNotification as documented, except trusting the sink's certificate and capping
  // in-flight requests at the sender's per-origin default so neither side floods the sink.
  https.globalAgent.options.ca = [...tls.rootCertificates, cert];
  webpush.setVapidDetails(subject, vapidKeys.publicKey, vapidKeys.privateKey);
  await measure(`web-push sendNotification, ${CONCURRENCY} in flight`, async () => {
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < targets.length) {
        const t = targets[next++];
        await webpush.sendNotification({ endpoint: t.endpoint, keys: { p256dh: t.p256dh, auth: t.auth } }, payload, { TTL: 3600 });
      }
    }));
  });
  https.globalAgent.destroy();
  console.log(`  sendNotification opened ${tlsConnections} TLS connections`);
  tlsConnections = 0;

  const sender = createPushSender({ ca: cert, concurrencyPerOrigin: CONCURRENCY });
  const vapid = createVapidHeaderCache({ subject, ...vapidKeys });
  await sender.sendBatch({ payload, ttl: 3600, urgency: 'normal', topic: 'warmup', vapid, subscriptions: targets.slice(0, 200) });
  let sent = 0;
  await measure('sender (pool + h2 + cached VAPID)', async () => {
    const results = await sender.sendBatch({ payload, ttl: 3600, urgency: 'normal', topic: 'bench', vapid, subscriptions: targets });
    sent = results.filter((r) => r.outcome === 'sent').length;
  });
  await sender.close();
  console.log(`  sender: ${sent}/${N} sent over ${tlsConnections} TLS connection(s), ${vapid.signatures} VAPID signature(s); sink received ${received} pushes in all`);
  await new Promise<void>((resolve) => sink.close(() => resolve()));
}

await main();
