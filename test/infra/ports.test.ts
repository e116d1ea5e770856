// Ports for the processes we start: outside the kernel's ephemeral range (where outgoing
// connections take their source ports, which made a child fail with EADDRINUSE once in CI),
// never in use, never handed out twice.
import net from 'node:net';
import { expect } from 'chai';
import { ephemeralRange, freePort, pickRange } from '@webpush/shared/ports.js';

describe('infra: free ports for child processes', () => {
  it('picks ports outside the ephemeral range, each one only once', async () => {
    const [elo, ehi] = ephemeralRange();
    const [lo, hi] = pickRange();
    expect(hi < elo || lo > ehi, `pick range ${lo}-${hi} vs ephemeral ${elo}-${ehi}`).to.equal(true);
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const port = await freePort();
      expect(port).to.be.within(lo, hi);
      expect(seen.has(port), `port ${port} handed out twice`).to.equal(false);
      seen.add(port);
    }
  });

  it('never returns a port something is listening on', async () => {
    const [lo, hi] = pickRange();
    // Occupy a block of the range, then ask for many ports: none of them may be in the block.
    const servers: net.Server[] = [];
    const base = lo + Math.floor(Math.random() * Math.max(1, hi - lo - 300));
    try {
      for (let p = base; p < base + 200; p++) {
        const srv = net.createServer();
        const ok = await new Promise<boolean>((resolve) => {
          srv.once('error', () => resolve(false));
          srv.listen(p, '127.0.0.1', () => resolve(true));
        });
        if (ok) servers.push(srv);
      }
      const occupied = new Set(servers.map((s) => (s.address() as net.AddressInfo).port));
      for (let i = 0; i < 100; i++) expect(occupied.has(await freePort())).to.equal(false);
    } finally {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    }
  });
});
