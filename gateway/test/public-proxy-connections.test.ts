// The /public proxy's pooled connections to the delivery service: the gateway closes an idle one
// before the delivery service would, and a request whose reused connection is reset before any
// answer is sent once more on a fresh one (never twice, never when the connection was new).
// Upstreams here are real Node HTTP servers on 127.0.0.1 that misbehave on purpose.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { requestId } from '../src/http/request-id.js';
import { createPublicProxy, UPSTREAM_IDLE_TIMEOUT_MS } from '../src/routes/public-proxy.js';
import { silentLogger } from './support/stack.js';

interface Upstream {
  url: string;
  /** Connections accepted, and how many of them the other side (the gateway) closed. */
  connections: Socket[];
  closedByPeer: number;
  requests: number;
  close(): Promise<void>;
}

/**
 * An upstream that keeps connections open for a minute; `resetOn(n, nth)` decides whether the
 * nth request on a connection (1-based) is answered or the connection is reset (TCP RST) instead.
 */
async function startUpstream(resetOn: (nth: number) => boolean = () => false): Promise<Upstream> {
  const perSocket = new WeakMap<Socket, number>();
  const up: Upstream = { url: '', connections: [], closedByPeer: 0, requests: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    up.requests += 1;
    const nth = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, nth);
    req.resume();
    req.on('end', () => {
      if (resetOn(nth)) return void req.socket.resetAndDestroy();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ nth }));
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    up.connections.push(socket);
    socket.on('end', () => (up.closedByPeer += 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  up.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  up.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return up;
}

/** A gateway's /public proxy alone, in front of `upstream`. */
async function startProxy(upstream: Upstream) {
  const proxy = createPublicProxy({ target: upstream.url, internalToken: 'token', clientOf: () => ({ address: '192.0.2.1' }), countryHeader: '', logger: silentLogger });
  const server = express().use(requestId).use(proxy.middleware).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async get(path = '/public/v1/webpush.js') {
      const res = await fetch(url + path, { signal: AbortSignal.timeout(10_000) });
      return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
    },
    stop() {
      server.closeAllConnections();
      server.close();
      proxy.close();
    },
  };
}

async function until(condition: () => boolean, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return condition();
}

describe('gateway: the /public proxy\'s connections to the delivery service', function () {
  this.timeout(30_000);

  it('when a pooled connection stays idle, then the gateway closes it itself, before the delivery service\'s 5 s keep-alive would', async () => {
    expect(UPSTREAM_IDLE_TIMEOUT_MS).to.be.below(new http.Server().keepAliveTimeout);
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream);
    try {
      expect((await proxy.get()).status).to.equal(200);
      // The upstream keeps it for a minute: only the gateway can close it (bounded wait).
      expect(await until(() => upstream.closedByPeer === 1, UPSTREAM_IDLE_TIMEOUT_MS + 5000), 'closed by the gateway').to.equal(true);
      expect((await proxy.get()).status).to.equal(200);
      expect(upstream.connections.length).to.equal(2);
    } finally {
      proxy.stop();
      await upstream.close();
    }
  });

  it('when a reused connection is reset before any answer, then the request is sent once more on a new connection and succeeds', async () => {
    const upstream = await startUpstream((nth) => nth === 2);
    const proxy = await startProxy(upstream);
    try {
      expect(await proxy.get()).to.include({ status: 200 });
      const second = await proxy.get();
      expect([second.status, second.body]).to.deep.equal([200, { nth: 1 }]);
      expect([upstream.connections.length, upstream.requests]).to.deep.equal([2, 3]);
    } finally {
      proxy.stop();
      await upstream.close();
    }
  });

  it('when the retry is reset too, or a new connection is reset, then 502 with the plugin\'s CORS headers, and no further attempt', async () => {
    const upstream = await startUpstream(() => upstream.requests > 1);
    const proxy = await startProxy(upstream);
    try {
      expect((await proxy.get()).status).to.equal(200); // request 1, connection 1
      const failed = await proxy.get(); // reused connection 1 reset, retried on connection 2, reset
      expect([failed.status, failed.body]).to.deep.equal([502, { message: 'Upstream unavailable' }]);
      expect(failed.headers.get('access-control-allow-origin')).to.equal('*');
      expect(failed.headers.get('access-control-expose-headers')).to.equal('Retry-After');
      expect([upstream.connections.length, upstream.requests]).to.deep.equal([2, 3]);
      const fresh = await proxy.get(); // no connection left to reuse: a new one, reset, not retried
      expect(fresh.status).to.equal(502);
      expect([upstream.connections.length, upstream.requests]).to.deep.equal([3, 4]);
    } finally {
      proxy.stop();
      await upstream.close();
    }
  });
});
