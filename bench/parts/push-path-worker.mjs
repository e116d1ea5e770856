// One round of `npm run bench:push-path`, as its own process: the delivery's push path alone —
// the sender and its HTTP/2 client from a checkout's dist/, an encryptor that hands back a fixed
// 530-byte body — pushing to the sink simulator as the chunk worker does (12 batches of 250 at
// once, each push's beforeSend and onResult called). Plain JavaScript, so that it loads another
// checkout's compiled code as it is. Prints one JSON line: process CPU (main thread, garbage
// collector and libuv threads) per push over the measured pushes, after a warm-up.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const tree = process.env.TREE;
const pushes = Number(process.env.PUSHES);
const warmup = Number(process.env.WARMUP);
const origin = process.env.SIM_ORIGIN;
const compiled = (file) => pathToFileURL(path.join(tree, 'dist/packages/push/src', file)).href;
const { createPushSender } = await import(compiled('sender.js'));
const { createVapidHeaderCache } = await import(compiled('vapid.js'));
const { generateKeyPairSync } = await import('node:crypto');

const body = Buffer.alloc(530, 7);
const encryptor = { encryptBatch: async (_payload, subs) => subs.map(() => body) };
const sender = createPushSender({ ca: readFileSync(process.env.SIM_CA, 'utf8'), testHosts: ['127.0.0.1'], encryptor });
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pub = publicKey.export({ format: 'jwk' });
const vapid = createVapidHeaderCache({
  subject: 'mailto:bench@example.com',
  publicKey: Buffer.concat([Buffer.from([4]), Buffer.from(pub.x, 'base64url'), Buffer.from(pub.y, 'base64url')]).toString('base64url'),
  privateKey: privateKey.export({ format: 'jwk' }).d,
});
const hooks = { beforeSend: () => Promise.resolve(true), onResult: () => {} };

let next = 0;
let failed = 0;
async function batches(left) {
  while (left.n > 0) {
    const size = Math.min(250, left.n);
    left.n -= size;
    const subscriptions = Array.from({ length: size }, () => {
      const id = String(++next);
      return { id, endpoint: `${origin}/push/s${id}`, p256dh: '', auth: '', payload: '{"title":"bench"}' };
    });
    const results = await sender.sendBatch({ payload: '', ttl: 600, urgency: 'normal', topic: 'bench', vapid, subscriptions }, hooks);
    failed += results.filter((r) => r.outcome !== 'sent').length;
  }
}
const send = (n) => Promise.all(Array.from({ length: 12 }, () => batches({ n: Math.ceil(n / 12) })));

await send(warmup);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const before = next;
await send(pushes);
const cpu = process.cpuUsage(cpu0);
const seconds = (performance.now() - t0) / 1000;
const measured = next - before;
await sender.close();
console.log(JSON.stringify({ pushes: measured, failed, cpuMicrosPerPush: (cpu.user + cpu.system) / measured, pushesPerSecond: measured / seconds }));
