// A stand-in for the delivery service's HTTP port that records every request its (Node) parser
// sees, with headers and body, and answers 200 JSON. Pointing a gateway at it shows exactly what
// the gateway forwards: one smuggled request would be one more entry.
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RecordingUpstream {
  url: string;
  received: Recorded[];
  close(): Promise<void>;
}

/** `delayMs`: how long each answer waits (to keep many upstream connections busy at once). */
export async function startRecordingUpstream(opts: { delayMs?: number } = {}): Promise<RecordingUpstream> {
  const received: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const answer = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ recorded: received.length }));
      if (opts.delayMs) setTimeout(answer, opts.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
