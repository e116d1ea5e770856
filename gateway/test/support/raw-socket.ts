// Raw HTTP over a socket, for what fetch cannot send: conflicting framing, chunked bodies on
// GET and DELETE, pipelined requests, slow clients. Every wait is bounded.
import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent before it closed the socket or went quiet. */
  text: string;
  /** The status codes of the responses in `text`, in order. */
  statuses: number[];
  /** true if the server closed the connection (rather than going quiet). */
  closed: boolean;
  /** Milliseconds from connecting to the end of the exchange. */
  ms: number;
}

function hostPort(baseUrl: string): { host: string; port: number } {
  const u = new URL(baseUrl);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) };
}

export function statusesOf(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

/**
 * Sends `parts` (each after `gapMs`), then waits until the server closes the socket, or has been
 * quiet for `quietMs`, or `maxMs` passed.
 */
export function rawExchange(baseUrl: string, parts: (string | Buffer)[], opts: { gapMs?: number; quietMs?: number; maxMs?: number } = {}): Promise<RawExchange> {
  const { gapMs = 0, quietMs = 400, maxMs = 10_000 } = opts;
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(hostPort(baseUrl));
    let text = '';
    let closed = false;
    let quiet: NodeJS.Timeout | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(quiet);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text, statuses: statusesOf(text), closed, ms: Date.now() - started });
    };
    const limit = setTimeout(finish, maxMs);
    const rearm = () => {
      clearTimeout(quiet);
      quiet = setTimeout(finish, quietMs);
    };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
      rearm();
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => {
      closed = true;
      finish();
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (finished || socket.destroyed) return;
        socket.write(part);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
      rearm();
    });
  });
}

/** A chunked body: `body` split into chunks of at most `size` bytes, then the last chunk. */
export function chunked(body: string | Buffer, size = 1 << 20): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) {
    const piece = bytes.subarray(i, i + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
