import { expect } from 'chai';
import { PushRequestError } from '../src/client.js';
import { classifyError, classifyResponse, parseRetryAfter } from '../src/outcome.js';

describe('push outcome classification', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it('maps each push-service status to what the sender does next', () => {
    const kinds = Object.fromEntries(
      [200, 201, 202, 400, 401, 403, 404, 410, 413, 429, 500, 502, 503, 504, 418].map((s) => [s, classifyResponse(s, {}, now).kind]),
    );
    expect(kinds).to.deep.equal({
      200: 'sent', 201: 'sent', 202: 'sent',
      400: 'failed', 401: 'failed', 403: 'failed', 413: 'failed', 418: 'failed',
      404: 'expired', 410: 'expired',
      429: 'rate-limited',
      500: 'retry', 502: 'retry', 503: 'retry', 504: 'retry',
    });
  });

  it('gives a one-line reason made of the status and our own label, never anything the push service wrote', () => {
    expect(classifyResponse(400, {}, now, 'Bad Request')).to.deep.equal({ kind: 'failed', status: 400, reason: '400 bad request' });
    expect(classifyResponse(413, {}, now)).to.include({ reason: '413 payload too large' });
  });

  it('when a status has no label, then the reason phrase shows, reduced to 40 safe characters', () => {
    expect(classifyResponse(418, {}, now, "I'm a teapot")).to.include({ reason: "418 I'm a teapot" });
    expect(classifyResponse(499, {}, now, '<script>\u001b[31mX\r\nSet-Cookie: a=b</script>' + 'y'.repeat(100))).to.include({
      reason: '499 script31mXSet-Cookie: ab/scriptyyyyyyyyy',
    });
    expect(classifyResponse(599, {}, now, '\u0000\u00e9')).to.include({ reason: '599 unexpected status' });
  });

  it('when the destination was refused, then the push fails for good (no retry), with a reason of printable ASCII', () => {
    const outcome = classifyError(new PushRequestError('refused', 'destination refused: x.example resolves to 10.0.0.1 (private)\u0000', 'https://x.example'));
    expect(outcome).to.deep.equal({ kind: 'failed', reason: 'destination refused: x.example resolves to 10.0.0.1 (private)' });
  });

  it('reads Retry-After as seconds or as an HTTP-date', () => {
    expect(classifyResponse(429, { 'retry-after': '7' }, now)).to.include({ kind: 'rate-limited', retryAfterMs: 7000 });
    const date = new Date(now + 90_000).toUTCString();
    expect(classifyResponse(429, { 'retry-after': date }, now)).to.include({ retryAfterMs: 90_000 });
  });

  it('when Retry-After is missing, unparsable, past or huge, then the wait is 60 s, 60 s, 0 and 10 min', () => {
    expect(parseRetryAfter(undefined, now)).to.equal(60_000);
    expect(parseRetryAfter('soon', now)).to.equal(60_000);
    expect(parseRetryAfter('-5', now)).to.equal(60_000);
    expect(parseRetryAfter(new Date(now - 5000).toUTCString(), now)).to.equal(0);
    expect(parseRetryAfter('86400', now)).to.equal(600_000);
  });

  it('treats timeouts, resets and other network errors as retryable', () => {
    expect(classifyError(new PushRequestError('timeout', 'no response within 10 ms', 'https://x'))).to.deep.equal({
      kind: 'retry',
      reason: 'timeout: no response within 10 ms',
    });
    expect(classifyError(new PushRequestError('reset', 'socket hang up', 'https://x')).kind).to.equal('retry');
    expect(classifyError(new Error('boom')).kind).to.equal('retry');
  });

  it('when a request broke after it went out, then the retry says the push service may have accepted it', () => {
    expect(classifyError(new PushRequestError('reset', 'stream closed (code 2)', 'https://x', { maybeAccepted: true }))).to.deep.equal({
      kind: 'retry',
      reason: 'reset: stream closed (code 2)',
      maybeAccepted: true,
    });
    expect(classifyError(new PushRequestError('network', 'connect ECONNREFUSED', 'https://x'))).to.not.have.property('maybeAccepted');
  });
});
