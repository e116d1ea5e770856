// A feed fetched from the customer's URL under the rules of every request to a customer's URL
// (@webpush/push/outbound.ts: https only, public addresses checked on the address connected to,
// certificates verified; FEED_TEST_HOSTS exempt, for tests), and these of its own:
//   - at most `maxBytes` of the answer (Content-Length beyond it refused before reading; a body
//     that grows beyond it cut), asked uncompressed (`Accept-Encoding: identity`), so the limit
//     is the memory a fetch can take;
//   - one deadline for the whole fetch, redirects included;
//   - at most MAX_REDIRECTS redirects, each new URL judged by the same rules before it is asked;
//   - a conditional GET (If-None-Match, If-Modified-Since) with the last answer's validators.
// Never rejects: a failure is an answer with the text the feed's lastError shows.
import http from 'node:http';
import https from 'node:https';
import { clipError, createOutboundAgents, describeConnectionError, outboundUrlProblem, type Resolver } from '@webpush/push/outbound.js';

const MAX_REDIRECTS = 3;
const SOCKETS_PER_HOST = 2;
const IDLE_SOCKET_MS = 30_000;

export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedFetch =
  | { kind: 'not-modified' }
  | { kind: 'fetched'; text: string; validators: FeedValidators }
  | { kind: 'failed'; error: string };

export interface FeedFetcherOptions {
  /** FEED_TEST_HOSTS: exact host names or IP literals as URLs write them. */
  testHosts: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  /** Default: dns.lookup. Tests stand in a fake DNS. */
  resolve?: Resolver;
  /** Extra trusted CA certificate(s), PEM. */
  ca?: string;
  userAgent?: string;
}

export interface FeedFetcher {
  fetch(url: string, validators: FeedValidators): Promise<FeedFetch>;
  close(): void;
}

type Hop = { kind: 'redirect'; location: string } | FeedFetch;

export function createFeedFetcher(opts: FeedFetcherOptions): FeedFetcher {
  const agents = createOutboundAgents({ socketsPerHost: SOCKETS_PER_HOST, idleSocketMs: IDLE_SOCKET_MS, ca: opts.ca, testHosts: opts.testHosts, resolve: opts.resolve });
  const userAgent = opts.userAgent ?? 'webpush-campaigns-feeds/1';
  const inFlight = new Set<http.ClientRequest>();
  let closed = false;

  function hop(url: URL, validators: FeedValidators, deadline: number): Promise<Hop> {
    return new Promise((resolve) => {
      const headers: Record<string, string> = {
        Accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1',
        'Accept-Encoding': 'identity',
        'User-Agent': userAgent,
      };
      if (validators.etag) headers['If-None-Match'] = validators.etag;
      if (validators.lastModified) headers['If-Modified-Since'] = validators.lastModified;
      let req: http.ClientRequest;
      try {
        req = (url.protocol === 'http:' ? http : https).request(url, { method: 'GET', agent: url.protocol === 'http:' ? agents.http : agents.https, lookup: agents.lookupFor(url), headers });
      } catch (err) {
        return resolve({ kind: 'failed', error: clipError(`invalid request: ${(err as Error).message}`) });
      }
      inFlight.add(req);
      let settled = false;
      const settle = (answer: Hop) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        inFlight.delete(req);
        resolve(answer);
        req.destroy();
      };
      const fail = (error: string) => settle({ kind: 'failed', error: clipError(error) });
      const timer = setTimeout(() => fail(`timed out after ${opts.timeoutMs} ms`), Math.max(0, deadline - Date.now()));
      req.on('error', (err) => fail(describeConnectionError(err, url.hostname)));
      req.on('close', () => fail('connection closed without an answer'));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        res.on('error', (err) => fail(describeConnectionError(err, url.hostname)));
        if ([301, 302, 303, 307, 308].includes(status)) {
          const location = res.headers.location;
          return location ? settle({ kind: 'redirect', location }) : fail(`redirect (${status}) without a Location`);
        }
        if (status === 304) return settle({ kind: 'not-modified' });
        if (status < 200 || status > 299) return fail(`HTTP ${status}`);
        const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
        if (encoding !== 'identity') return fail(`compressed answer (${encoding}) that was not asked for`);
        const tooLarge = `feed larger than ${opts.maxBytes} bytes`;
        if (Number(res.headers['content-length'] ?? 0) > opts.maxBytes) return fail(tooLarge);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) return fail(tooLarge);
          chunks.push(chunk);
        });
        res.on('end', () => {
          const etag = res.headers.etag ?? null;
          const lastModified = res.headers['last-modified'] ?? null;
          settle({ kind: 'fetched', text: decode(Buffer.concat(chunks), res.headers['content-type']), validators: { etag, lastModified } });
        });
      });
      req.end();
    });
  }

  return {
    async fetch(raw, validators) {
      const deadline = Date.now() + opts.timeoutMs;
      let url = raw;
      for (let redirects = 0; ; redirects++) {
        if (closed) return { kind: 'failed', error: 'fetcher closed' };
        const problem = outboundUrlProblem(url, opts.testHosts);
        if (problem !== null) return { kind: 'failed', error: clipError(`refused: ${problem}${url === raw ? '' : ` (redirected to ${url})`}`) };
        const answer = await hop(new URL(url), validators, deadline);
        if (answer.kind !== 'redirect') return answer;
        if (redirects === MAX_REDIRECTS) return { kind: 'failed', error: `more than ${MAX_REDIRECTS} redirects` };
        const next = URL.parse(answer.location, url);
        if (!next) return { kind: 'failed', error: clipError(`redirect to an invalid URL: ${answer.location}`) };
        url = next.href;
      }
    },
    close() {
      closed = true;
      for (const req of [...inFlight]) req.destroy(new Error('fetcher closed'));
      agents.destroy();
    },
  };
}

/**
 * The body as text: the charset of Content-Type, else of the XML declaration, else UTF-8 (XML's
 * default). A label TextDecoder does not know is read as UTF-8.
 */
function decode(bytes: Buffer, contentType: string | undefined): string {
  const declared = /charset=["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ?? /^\s*<\?xml[^>]*encoding=["']([\w.:-]+)["']/i.exec(bytes.subarray(0, 200).toString('latin1'))?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(declared).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
