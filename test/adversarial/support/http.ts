// A deliberately dumb HTTP/1.1 client over raw TCP: it sends exactly the bytes it is given
// (odd header bytes, duplicate or conflicting framing headers, raw path bytes) and reads every
// answer the server writes on the connection, so nothing between the test and the server can
// "fix" a hostile request the way fetch or node:http would.
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lowercased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

export interface RawResult {
  /** Every complete response read from the connection, in order. */
  responses: RawResponse[];
  /** How the connection ended: closed by the server, or still open when we gave up. */
  ended: 'closed' | 'timeout' | 'error';
  /** Bytes left that did not form a complete response. */
  leftover: Buffer;
  ms: number;
  error?: string;
}

export type HeaderList = [string, string | Buffer][];

export interface RequestSpec {
  method: string;
  /** Sent as is (a Buffer for raw bytes). */
  path: string | Buffer;
  headers?: HeaderList;
  body?: string | Buffer;
  /** Add `Content-Length` for the body unless a framing header is given (default true). */
  autoLength?: boolean;
  /** Add `Connection: close` (default true). */
  close?: boolean;
}

export function buildRequest(port: number, spec: RequestSpec): Buffer {
  const headers: HeaderList = [['Host', `127.0.0.1:${port}`], ...(spec.headers ?? [])];
  const names = headers.map(([n]) => n.toLowerCase());
  const body = spec.body === undefined ? undefined : Buffer.isBuffer(spec.body) ? spec.body : Buffer.from(spec.body, 'utf8');
  if (body !== undefined && spec.autoLength !== false && !names.includes('content-length') && !names.includes('transfer-encoding')) {
    headers.push(['Content-Length', String(body.length)]);
  }
  if (spec.close !== false && !names.includes('connection')) headers.push(['Connection', 'close']);
  const parts: Buffer[] = [Buffer.from(`${spec.method} `, 'latin1'), Buffer.isBuffer(spec.path) ? spec.path : Buffer.from(spec.path, 'latin1'), Buffer.from(' HTTP/1.1\r\n', 'latin1')];
  for (const [name, value] of headers) parts.push(Buffer.from(`${name}: `, 'latin1'), Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'), Buffer.from('\r\n', 'latin1'));
  parts.push(Buffer.from('\r\n', 'latin1'));
  if (body) parts.push(body);
  return Buffer.concat(parts);
}

/** Parses as many complete responses as `buf` holds. `headOnly[i]`: the i-th answer has no body (HEAD). */
export function parseResponses(buf: Buffer, headOnly: (i: number) => boolean = () => false, atEnd = false): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let rest = buf;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const head = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0]);
    if (!m) break;
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      if (i <= 0) continue;
      const name = line.slice(0, i).trim().toLowerCase();
      const value = line.slice(i + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let pos = headEnd + 4;
    let body: Buffer;
    const noBody = headOnly(responses.length) || status === 204 || status === 304 || (status >= 100 && status < 200);
    if (noBody) body = Buffer.alloc(0);
    else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
      const chunks: Buffer[] = [];
      let complete = false;
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', pos);
        if (lineEnd < 0) break;
        const size = parseInt(rest.subarray(pos, lineEnd).toString('latin1'), 16);
        if (Number.isNaN(size)) break;
        if (size === 0) {
          const trailerEnd = rest.indexOf('\r\n\r\n', lineEnd);
          const end = rest.indexOf('\r\n', lineEnd + 2) === lineEnd + 2 ? lineEnd + 4 : trailerEnd >= 0 ? trailerEnd + 4 : -1;
          if (end < 0) break;
          pos = end;
          complete = true;
          break;
        }
        if (rest.length < lineEnd + 2 + size + 2) break;
        chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        pos = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(chunks);
    } else if (headers['content-length'] !== undefined) {
      const len = Number(headers['content-length'].split(',')[0]);
      if (rest.length < pos + len) break;
      body = rest.subarray(pos, pos + len);
      pos += len;
    } else {
      // Delimited by the end of the connection.
      if (!atEnd) break;
      body = rest.subarray(pos);
      pos = rest.length;
    }
    responses.push({ status, headers, body, text: body.toString('utf8') });
    rest = rest.subarray(pos);
  }
  return { responses, rest };
}

export interface SendOptions {
  timeoutMs?: number;
  /** Answers that carry no body (one per HEAD request, in order). */
  headOnly?: (i: number) => boolean;
  /** Resolve as soon as this many responses were read (keep-alive connections). */
  expectResponses?: number;
}

/** Writes `bytes` (or each piece with a pause between) and collects what comes back until the server closes. */
export function sendRaw(port: number, bytes: Buffer | { pieces: Buffer[]; gapMs: number }, opts: SendOptions = {}): Promise<RawResult> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const received: Buffer[] = [];
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (ended: RawResult['ended'], error?: string) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      const { responses, rest } = parseResponses(Buffer.concat(received), opts.headOnly, ended === 'closed');
      resolve({ responses, ended, leftover: rest, ms: Date.now() - started, error });
    };
    socket.on('data', (d: Buffer) => {
      received.push(d);
      if (opts.expectResponses !== undefined && parseResponses(Buffer.concat(received), opts.headOnly).responses.length >= opts.expectResponses) finish('closed');
    });
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.on('error', (err) => finish((err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE' ? 'closed' : 'error', err.message));
    timers.push(setTimeout(() => finish('timeout'), timeoutMs));
    socket.on('connect', () => {
      if (Buffer.isBuffer(bytes)) {
        socket.write(bytes);
        return;
      }
      let i = 0;
      const next = () => {
        if (done || i >= bytes.pieces.length) return;
        socket.write(bytes.pieces[i++]);
        timers.push(setTimeout(next, bytes.gapMs));
      };
      next();
    });
  });
}

/** One request, one answer (Connection: close). */
export async function request(port: number, spec: RequestSpec, opts: SendOptions = {}): Promise<RawResult> {
  const isHead = spec.method.toUpperCase() === 'HEAD';
  return sendRaw(port, buildRequest(port, spec), { headOnly: () => isHead, ...opts });
}

/** Why an error answer is not exactly `{"message": "<text>"}` as JSON, or null when it is. */
export function errorBodyProblem(res: RawResponse, method = 'GET'): string | null {
  if (res.status < 400) return null;
  if (method.toUpperCase() === 'HEAD') return null;
  if (!/^application\/json\b/i.test(res.headers['content-type'] ?? '')) return `content-type ${JSON.stringify(res.headers['content-type'] ?? null)}, body ${JSON.stringify(res.text.slice(0, 120))}`;
  let value: unknown;
  try {
    value = JSON.parse(res.text);
  } catch {
    return `body is not JSON: ${JSON.stringify(res.text.slice(0, 120))}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `body is not an object: ${res.text.slice(0, 120)}`;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'message' || typeof (value as { message: unknown }).message !== 'string') return `body is not {message: string}: ${res.text.slice(0, 200)}`;
  if ((value as { message: string }).message.trim() === '') return 'message is empty';
  return null;
}
