// Free TCP ports for processes we start ourselves (embedded Postgres, the local Kafka broker,
// services started by `npm start` and the tests).
//
// A port that the kernel hands out for `listen(0)` lies in its ephemeral range, the same range
// it draws from for the source port of every *outgoing* connection. Between "this port is free"
// and the child process binding it, any outgoing connection (a Kafka client, a Postgres pool)
// can take it, and the child fails with EADDRINUSE. So ports are chosen below the ephemeral
// range, where the kernel never assigns source ports, checked by binding them, and never handed
// out twice by one process.
import { readFileSync } from 'node:fs';
import net from 'node:net';

const handedOut = new Set<number>();

/** The kernel's ephemeral port range (Linux); the common default elsewhere. */
export function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(lo) && Number.isInteger(hi) && lo > 0 && hi >= lo) return [lo, hi];
  } catch {
    /* not Linux */
  }
  return [32768, 60999];
}

/** The range we pick from: 4,000+ ports just below the ephemeral range (or above it if there is no room below). */
export function pickRange(): [number, number] {
  const [lo, hi] = ephemeralRange();
  if (lo - 1 - 20000 >= 4000) return [20000, lo - 1];
  if (lo - 1 - 1024 >= 1000) return [1024, lo - 1];
  return [Math.min(hi + 1, 65535), 65535];
}

function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A port nobody listens on, outside the ephemeral range, not handed out before by this process. */
export async function freePort(): Promise<number> {
  const [lo, hi] = pickRange();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = lo + Math.floor(Math.random() * (hi - lo + 1));
    if (handedOut.has(port)) continue;
    // Both the loopback address our servers bind and the wildcard (a server on 0.0.0.0 blocks it too).
    if ((await canListen(port, '127.0.0.1')) && (await canListen(port, '0.0.0.0'))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free TCP port found in ${lo}-${hi} after 200 attempts`);
}
