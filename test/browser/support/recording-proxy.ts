// A pass-through HTTP proxy in front of the gateway that records each request's method and path
// (and a preflight's Access-Control-Request-Method): what a browser really sent, preflights
// included, which no page or worker API shows.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** A CORS preflight's Access-Control-Request-Method. */
  requestMethod?: string;
}

export interface RecordingProxy {
  url: string;
  requests(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const recorded: RecordedRequest[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const requestMethod = req.headers['access-control-request-method'];
    recorded.push({ method: req.method ?? '', path: req.url ?? '', ...(typeof requestMethod === 'string' ? { requestMethod } : {}) });
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => [...recorded],
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
