// Container HEALTHCHECK probe (plain JavaScript: runs without tsx). Exit 0 = healthy.
//   node deploy/docker/healthcheck.mjs http <url>
//   node deploy/docker/healthcheck.mjs grpc <host:port> [service]   (grpc.health.v1; '' = overall)
import { createRequire } from 'node:module';

const [kind, target, service = ''] = process.argv.slice(2);
const TIMEOUT_MS = 2500;

async function http(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  return res.ok;
}

async function grpcHealth(address, name) {
  const require = createRequire(import.meta.url);
  const grpc = require('@grpc/grpc-js');
  const protoLoader = require('@grpc/proto-loader');
  const { protoPath } = require('grpc-health-check');
  const def = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, { keepCase: true, enums: String }));
  const client = new def.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve) => {
      client.check({ service: name }, { deadline: Date.now() + TIMEOUT_MS }, (err, res) => resolve(!err && res?.status === 'SERVING'));
    });
  } finally {
    client.close();
  }
}

try {
  const ok = kind === 'http' ? await http(target) : kind === 'grpc' ? await grpcHealth(target, service) : false;
  process.exit(ok ? 0 : 1);
} catch {
  process.exit(1);
}
