import { createHash } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { expect } from 'chai';
import fc from 'fast-check';
import { Http2Connection, type PushConnection, type ResponseHandler } from '../../src/http2/connection.js';
import { NodeHttp2Connection } from '../../src/http2/node-connection.js';
import { FieldSet } from '../../src/http2/hpack.js';
import { testCertificate } from '../support/tls.js';

const MAX_BODY = 64 * 1024;

type Outcome = { status: number; headers: Record<string, string> } | { error: string; processed: boolean };

/** A handler that records what the connection tells it; `outcome` settles on end() or fail(). */
function recorder() {
  let status = 0;
  let headers: Record<string, string> = {};
  let calls = 0;
  let settle!: (o: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  const handler: ResponseHandler = {
    response(s, h) {
      status = s;
      headers = h;
    },
    end() {
      calls += 1;
      settle({ status, headers });
    },
    fail(error, processed) {
      calls += 1;
      settle({ error, processed });
    },
  };
  return { handler, outcome, calls: () => calls };
}

/** The two implementations (PUSH_HTTP_CLIENT): what a Node HTTP/2 server exchanges with them is asked of both. */
const IMPLEMENTATIONS = { own: Http2Connection, node: NodeHttp2Connection } as const;

function connect<C extends PushConnection>(port: number, Impl: new (socket: tls.TLSSocket, opts: { maxBodyBytes: number }) => C): Promise<C> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca: testCertificate().cert, ALPNProtocols: ['h2'] });
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      const conn = new Impl(socket, { maxBodyBytes: MAX_BODY });
      conn.onReady = () => resolve(conn);
      conn.onClose = (err) => reject(err ?? new Error('closed before SETTINGS'));
    });
  });
}

const pushFields = new FieldSet([':method', 'POST', ':scheme', 'https', ':authority', '127.0.0.1', 'ttl', '60', 'content-encoding', 'aes128gcm']);

function request(conn: PushConnection, path: string, body = Buffer.from('payload'), fields = pushFields) {
  const r = recorder();
  const id = conn.request(fields, path, body, r.handler);
  return { ...r, id };
}

interface Frame {
  type: number;
  flags: number;
  id: number;
  payload: Buffer;
}

/**
 * A push service that speaks raw frames: what the tests' hostile servers send is exactly what
 * they write, and what the client sends is read back frame by frame.
 */
async function rawServer() {
  const peers: Array<{ socket: tls.TLSSocket; frames: Frame[]; waiters: Array<() => void> }> = [];
  let onPeer: (() => void) | undefined;
  const server = tls.createServer({ ...testCertificate(), ALPNProtocols: ['h2'] }, (socket) => {
    const peer = { socket, frames: [] as Frame[], waiters: [] as Array<() => void> };
    peers.push(peer);
    let buf = Buffer.alloc(0);
    let prefaceSeen = false;
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!prefaceSeen) {
        if (buf.length < 24) return;
        buf = buf.subarray(24);
        prefaceSeen = true;
      }
      while (buf.length >= 9 && buf.length >= 9 + buf.readUIntBE(0, 3)) {
        const length = buf.readUIntBE(0, 3);
        peer.frames.push({ type: buf[3], flags: buf[4], id: buf.readUInt32BE(5) & 0x7fffffff, payload: buf.subarray(9, 9 + length) });
        buf = buf.subarray(9 + length);
      }
      for (const w of peer.waiters.splice(0)) w();
    });
    socket.on('error', () => {});
    onPeer?.();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** The latest connection's socket and a way to wait for a frame from the client. */
    async peer() {
      while (peers.length === 0) await new Promise<void>((r) => (onPeer = r));
      const peer = peers[peers.length - 1];
      return {
        send(type: number, flags: number, id: number, payload: Buffer | number[] = []) {
          const p = Buffer.from(payload);
          const head = Buffer.alloc(9);
          head.writeUIntBE(p.length, 0, 3);
          head[3] = type;
          head[4] = flags;
          head.writeUInt32BE(id, 5);
          peer.socket.write(Buffer.concat([head, p]));
        },
        sendRaw: (bytes: Buffer) => peer.socket.write(bytes),
        pause: () => peer.socket.pause(),
        async frame(match: (f: Frame) => boolean): Promise<Frame> {
          const deadline = Date.now() + 5000;
          for (;;) {
            const found = peer.frames.find(match);
            if (found) return found;
            if (Date.now() > deadline) throw new Error('frame not seen within 5 s');
            await new Promise<void>((r) => {
              peer.waiters.push(r);
              setTimeout(r, 100);
            });
          }
        },
      };
    },
    async close() {
      for (const p of peers) p.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const SETTINGS = 0x4;
const HEADERS = 0x1;
const GOAWAY = 0x7;
const RST_STREAM = 0x3;
const goawayCode = (f: Frame) => f.payload.readUInt32BE(4);

for (const [name, Impl] of Object.entries(IMPLEMENTATIONS)) describe(`HTTP/2 connection (PUSH_HTTP_CLIENT=${name})`, function () {
  this.timeout(20_000);
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function nodeServer(settings: http2.Settings = {}, onStream?: (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void) {
    const server = http2.createSecureServer({ ...testCertificate(), settings });
    server.on('stream', (stream, headers) => onStream?.(stream as http2.ServerHttp2Stream, headers));
    server.on('sessionError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const sessions = new Set<http2.ServerHttp2Session>();
    server.on('session', (s) => sessions.add(s));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const s of sessions) s.destroy();
          server.close(() => resolve());
        }),
    );
    return (server.address() as AddressInfo).port;
  }

  async function open(port: number) {
    const conn = await connect<PushConnection>(port, Impl);
    cleanups.push(() => conn.destroy());
    return conn;
  }

  it('property: statuses and header values a Node HTTP/2 server sends (Huffman-coded, indexed in its table) arrive exactly, many on one connection', async () => {
    const answers = new Map<string, { status: number; headers: Record<string, string> }>();
    const port = await nodeServer({}, (stream, headers) => {
      const answer = answers.get(String(headers[':path']))!;
      stream.respond({ ':status': answer.status, ...answer.headers });
      stream.end();
    });
    const conn = await open(port);
    const value = fc.stringMatching(/^[!-~]([ -~]{0,60}[!-~])?$/);
    const answer = fc.record({
      status: fc.integer({ min: 200, max: 599 }),
      headers: fc.dictionary(fc.stringMatching(/^x-[a-z]{1,12}$/), value, { maxKeys: 5 }),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 20 }), async (batch) => {
        const requests = batch.map((a) => {
          const path = `/push/${n++}`;
          answers.set(path, a);
          return request(conn, path);
        });
        const outcomes = await Promise.all(requests.map((r) => r.outcome));
        outcomes.forEach((o, i) => {
          expect(o).to.have.property('status', batch[i].status);
          const { date, ...rest } = (o as { headers: Record<string, string> }).headers;
          expect(date).to.be.a('string');
          expect(rest).to.deep.equal(batch[i].headers);
        });
        expect(requests.every((r) => r.calls() === 1)).to.equal(true);
      }),
      { numRuns: 40 },
    );
  });

  it('property: request headers reach a Node HTTP/2 server exactly, the repeated ones indexed in its table, whatever table size it sets, also mid-connection', async () => {
    const seen = new Map<string, http2.IncomingHttpHeaders>();
    let session: http2.ServerHttp2Session | undefined;
    const port = await nodeServer({ headerTableSize: 4096 }, (stream, headers) => {
      session = stream.session as http2.ServerHttp2Session;
      seen.set(String(headers[':path']), headers);
      stream.respond({ ':status': 201 });
      stream.end();
    });
    const conn = await open(port);
    const value = fc.stringMatching(/^[!-~]([ -~]{0,400}[!-~])?$/);
    const fieldSet = fc.dictionary(fc.stringMatching(/^x-[a-z]{1,12}$/), value, { maxKeys: 5 }).map((extra) => ({ extra, set: new FieldSet([':method', 'POST', ':scheme', 'https', ':authority', '127.0.0.1', ...Object.entries(extra).flat()]) }));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fieldSet, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), fc.constantFrom(undefined, 0, 100, 600, 4096), async (sets, picks, tableSize) => {
        if (tableSize !== undefined && session) {
          // The new size applies once the client acknowledges it; the requests after that announce it.
          await new Promise<void>((resolve) => session!.settings({ headerTableSize: tableSize }, () => resolve()));
        }
        const requests = picks.map((p) => {
          const path = `/push/${n++}`;
          const chosen = sets[p % sets.length];
          return { path, extra: chosen.extra, r: request(conn, path, Buffer.from('payload'), chosen.set) };
        });
        const outcomes = await Promise.all(requests.map((q) => q.r.outcome));
        outcomes.forEach((o) => expect(o).to.have.property('status', 201));
        for (const { path, extra } of requests) {
          const got = seen.get(path)!;
          expect(got[':authority']).to.equal('127.0.0.1');
          expect(got['content-length']).to.equal('7');
          for (const [name, v] of Object.entries(extra)) expect(got[name]).to.equal(v);
        }
      }),
      { numRuns: 30 },
    );
    expect(conn.closed).to.equal(false);
  });

  it('when the server allows small windows, then bodies go out in pieces as it opens them, every byte intact', async () => {
    const received = new Map<string, string>();
    const port = await nodeServer({ initialWindowSize: 1000 }, (stream, headers) => {
      const hash = createHash('sha256');
      stream.on('data', (chunk: Buffer) => hash.update(chunk));
      stream.on('end', () => {
        received.set(String(headers[':path']), hash.digest('hex'));
        stream.respond({ ':status': 201 });
        stream.end();
      });
    });
    const conn = await open(port);
    // 60 × 4000 bytes: far past both the streams' 1000 and the connection's 65,535 default.
    const bodies = Array.from({ length: 60 }, (_, i) => Buffer.alloc(4000, i));
    const outcomes = await Promise.all(bodies.map((b, i) => request(conn, `/flow/${i}`, b).outcome));
    expect(outcomes.every((o) => 'status' in o && o.status === 201)).to.equal(true);
    bodies.forEach((b, i) => expect(received.get(`/flow/${i}`)).to.equal(createHash('sha256').update(b).digest('hex')));
  });

  it('when a response body passes the cap, then the request ends with its status, the stream is cancelled and the connection serves the next one', async () => {
    const port = await nodeServer({}, (stream, headers) => {
      stream.respond({ ':status': headers[':path'] === '/big' ? 400 : 201 });
      stream.end(headers[':path'] === '/big' ? Buffer.alloc(300_000, 0x61) : undefined);
    });
    const conn = await open(port);
    expect(await request(conn, '/big').outcome).to.deep.include({ status: 400 });
    expect(await request(conn, '/next').outcome).to.deep.include({ status: 201 });
    // Ours keeps no record of the cancelled stream (Node's streams are its own business).
    if (conn instanceof Http2Connection) expect(conn.active).to.equal(0);
  });

  // Frame by frame, with our own connection's messages: Node's (nghttp2) has its own tests.
  if (Impl === Http2Connection) describe('a hostile or broken push service (ours)', () => {
    async function hostile() {
      const server = await rawServer();
      cleanups.push(() => server.close());
      const connecting = connect(server.port, Http2Connection);
      const peer = await server.peer();
      return { server, peer, connecting };
    }

    async function ready() {
      const { peer, connecting } = await hostile();
      peer.send(SETTINGS, 0, 0);
      const conn = await connecting;
      cleanups.push(() => conn.destroy());
      const closed = new Promise<Error | undefined>((resolve) => (conn.onClose = resolve));
      return { peer, conn, closed };
    }

    const responseBlock = (status: string) => Buffer.concat([Buffer.from([0x08, status.length]), Buffer.from(status, 'latin1')]); // literal, name :status

    it('when it does not start with SETTINGS, then the connection is refused before any request', async () => {
      const { peer, connecting } = await hostile();
      peer.send(0x6, 0, 0, Buffer.alloc(8));
      const err = await connecting.then(() => undefined, (e: Error) => e);
      expect(err?.message).to.match(/did not start with SETTINGS/);
      expect(goawayCode(await peer.frame((f) => f.type === GOAWAY))).to.equal(0x1);
    });

    const connectionErrors: Array<[string, number, RegExp, (peer: Awaited<ReturnType<typeof ready>>['peer'], id: number) => void]> = [
      ['a frame larger than 16 KB', 0x6, /frame of 20000 bytes/, (peer) => peer.sendRaw(Buffer.from([0x00, 0x4e, 0x20, 0x0, 0x0, 0, 0, 0, 1]))],
      ['a header block continued past 64 KB', 0xb, /header block too large/, (peer, id) => {
        peer.send(HEADERS, 0, id, responseBlock('200'));
        for (let i = 0; i < 5; i++) peer.send(0x9, 0, id, Buffer.alloc(16_000, 0x61));
      }],
      ['a frame between HEADERS and its CONTINUATION', 0x1, /interrupted/, (peer, id) => {
        peer.send(HEADERS, 0, id, responseBlock('200'));
        peer.send(0x6, 0, 0, Buffer.alloc(8));
      }],
      ['PUSH_PROMISE', 0x1, /PUSH_PROMISE/, (peer, id) => peer.send(0x5, 0x4, id, [0, 0, 0, 2])],
      ['an HPACK index out of range', 0x9, /out of range/, (peer, id) => peer.send(HEADERS, 0x4, id, [0xbf])],
      ['a connection window above 2^31-1', 0x3, /above 2\^31-1/, (peer) => peer.send(0x8, 0, 0, [0x7f, 0xff, 0xff, 0xff])],
      ['DATA on a stream never opened', 0x1, /idle stream/, (peer) => peer.send(0x0, 0, 99, [1, 2, 3])],
    ];
    for (const [what, code, message, misbehave] of connectionErrors) {
      it(`when it sends ${what}, then the connection ends with GOAWAY (code ${code}) and its streams fail, maybe processed`, async () => {
        const { peer, conn, closed } = await ready();
        const a = request(conn, '/a');
        const b = request(conn, '/b');
        await peer.frame((f) => f.type === HEADERS && f.id === b.id);
        misbehave(peer, a.id);
        expect((await closed)?.message).to.match(message);
        for (const r of [a, b]) expect(await r.outcome).to.deep.equal({ error: (await closed)!.message, processed: true });
        expect(goawayCode(await peer.frame((f) => f.type === GOAWAY))).to.equal(code);
        expect(conn.closed).to.equal(true);
        expect(() => request(conn, '/c')).to.throw(/no new streams/);
      });
    }

    it('when it answers one stream with a malformed status, then only that stream fails (RST_STREAM PROTOCOL_ERROR) and the next is answered', async () => {
      const { peer, conn } = await ready();
      const a = request(conn, '/a');
      const b = request(conn, '/b');
      await peer.frame((f) => f.type === HEADERS && f.id === b.id);
      peer.send(HEADERS, 0x5, a.id, responseBlock('2x0'));
      peer.send(HEADERS, 0x5, b.id, responseBlock('201'));
      expect(await a.outcome).to.deep.equal({ error: 'malformed response: response without a valid :status', processed: true });
      expect(await b.outcome).to.deep.equal({ status: 201, headers: {} });
      const rst = await peer.frame((f) => f.type === RST_STREAM && f.id === a.id);
      expect(rst.payload.readUInt32BE(0)).to.equal(0x1);
      expect(conn.closed).to.equal(false);
    });

    it('when it sends GOAWAY, then streams above its last id fail as not processed, those below are still answered, and the connection then ends', async () => {
      const { peer, conn, closed } = await ready();
      const a = request(conn, '/a');
      const b = request(conn, '/b');
      await peer.frame((f) => f.type === HEADERS && f.id === b.id);
      const goaway = Buffer.alloc(8);
      goaway.writeUInt32BE(a.id, 0);
      peer.send(GOAWAY, 0, 0, goaway);
      expect(await b.outcome).to.deep.equal({ error: 'refused by GOAWAY (code 0)', processed: false });
      expect(conn.closed).to.equal(true);
      peer.send(HEADERS, 0x5, a.id, responseBlock('201'));
      expect(await a.outcome).to.deep.equal({ status: 201, headers: {} });
      expect(await closed).to.equal(undefined);
    });

    it('when it refuses a stream (RST_STREAM REFUSED_STREAM), then that stream fails as not processed', async () => {
      const { peer, conn } = await ready();
      const a = request(conn, '/a');
      await peer.frame((f) => f.type === HEADERS && f.id === a.id);
      peer.send(RST_STREAM, 0, a.id, [0, 0, 0, 0x7]);
      expect(await a.outcome).to.deep.equal({ error: 'stream closed (code 7)', processed: false });
    });

    it('when it never reads while flooding PINGs, then the answers owed stop at a bound and the connection is dropped', async () => {
      const { peer, conn, closed } = await ready();
      peer.pause();
      const ping = Buffer.from([0, 0, 8, 0x6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
      // 40 MB of PINGs in 1 MB writes: the acknowledgements owed pass 4 MB long before the end.
      const megabyte = Buffer.concat(Array.from({ length: Math.floor(1024 * 1024 / ping.length) }, () => ping));
      let stop = false;
      void closed.then(() => (stop = true));
      for (let i = 0; i < 40 && !stop; i++) {
        peer.sendRaw(megabyte);
        await new Promise((r) => setImmediate(r));
      }
      expect((await closed)?.message).to.match(/does not read/);
      expect(conn.closed).to.equal(true);
    });
  });
});
