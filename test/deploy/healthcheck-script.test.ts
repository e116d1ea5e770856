// deploy/docker/healthcheck.mjs, the containers' HEALTHCHECK and compose's healthchecks, run as
// the containers run it (a separate node process) against real HTTP and gRPC servers.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { bindServer, shutdownServer } from '@webpush/shared/grpc.js';
import { addGrpcHealth, createReadiness } from '@webpush/shared/observability/health.js';

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, 'deploy/docker/healthcheck.mjs');

async function probe(...args: string[]): Promise<number> {
  try {
    await run(process.execPath, [SCRIPT, ...args], { cwd: ROOT, timeout: 15_000 });
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe('the container healthcheck script', () => {
  let server: http.Server;
  let base: string;
  let grpcServer: grpc.Server;
  let grpcTarget: string;
  let ready = true;
  let health: ReturnType<typeof addGrpcHealth>;

  before(async () => {
    server = http.createServer((req, res) => res.writeHead(req.url === '/ok' ? 200 : 503).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    grpcServer = new grpc.Server();
    health = addGrpcHealth(grpcServer, ['test.v1.Thing'], createReadiness({ flag: async () => {
      if (!ready) throw new Error('not ready');
    } }), 60_000);
    grpcTarget = `127.0.0.1:${await bindServer(grpcServer, '127.0.0.1', 0)}`;
    await health.start();
  });

  after(async () => {
    health.stop();
    await shutdownServer(grpcServer, 1000);
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('passes on an HTTP 200 and fails on a 503 or a closed port', async () => {
    expect(await probe('http', `${base}/ok`)).to.equal(0);
    expect(await probe('http', `${base}/nope`)).to.equal(1);
    expect(await probe('http', 'http://127.0.0.1:1/healthz')).to.equal(1);
  });

  it('passes while the gRPC health service says SERVING, for the overall status, a service and liveness', async () => {
    expect(await probe('grpc', grpcTarget)).to.equal(0);
    expect(await probe('grpc', grpcTarget, 'test.v1.Thing')).to.equal(0);
    expect(await probe('grpc', grpcTarget, 'liveness')).to.equal(0);
    expect(await probe('grpc', grpcTarget, 'unknown.Service')).to.equal(1);
  });

  it('fails readiness but not liveness once the server stops serving', async () => {
    ready = false;
    health.stop();
    expect(await probe('grpc', grpcTarget, 'test.v1.Thing')).to.equal(1);
    expect(await probe('grpc', grpcTarget, 'liveness')).to.equal(0);
  });
});
