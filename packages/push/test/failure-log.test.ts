// Push failures are logged as a few lines per interval, not one per push.
import { expect } from 'chai';
import type { Logger } from '@webpush/shared/log.js';
import { createFailureLog } from '../src/failure-log.js';

function recordingLog() {
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [];
  const at = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => void lines.push({ level, msg, fields });
  const log: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return { log, lines };
}

describe('push failure log', () => {
  const A = 'https://fcm.googleapis.com';
  const B = 'https://updates.push.services.mozilla.com';

  it('when 1,898 pushes fail in one interval, then one line per origin and class and one summary with the counts', () => {
    const { log, lines } = recordingLog();
    const failures = createFailureLog(log, { intervalMs: 60_000 });
    for (let i = 0; i < 1800; i++) failures.failed(A, 'unreachable', { subscriberId: `a${i}`, status: 503, reason: 'gave up after 9 attempts (retry budget 300 s): 503 push service unavailable' });
    for (let i = 0; i < 90; i++) failures.failed(A, 'rejected', { subscriberId: `r${i}`, status: 400, reason: '400 bad request' });
    for (let i = 0; i < 8; i++) failures.failed(B, 'unauthorized', { subscriberId: `b${i}`, status: 403, reason: '403 forbidden (VAPID key mismatch)' });
    for (let i = 0; i < 5000; i++) failures.retried(A, '503');
    failures.retried(A, 'timeout');
    failures.paused(A, { failed: 12, of: 20 });
    failures.paused(A, { failed: 10, of: 20 });
    failures.resumed(A, { pausedSec: 21.5, probes: 6 });

    expect(lines.filter((l) => l.msg === 'push failed').map((l) => [l.fields.origin, l.fields.class, l.fields.subscriberId])).to.deep.equal([
      [A, 'unreachable', 'a0'],
      [A, 'rejected', 'r0'],
      [B, 'unauthorized', 'b0'],
    ]);
    expect(lines.filter((l) => l.msg.startsWith('push origin paused'))).to.have.length(1);
    expect(lines.filter((l) => l.msg.startsWith('push origin resumed'))).to.have.length(1);

    failures.flush();
    const summaries = lines.filter((l) => l.msg === 'push failures summary');
    expect(summaries).to.have.length(1);
    expect(summaries[0].level).to.equal('warn');
    expect(summaries[0].fields).to.deep.equal({
      intervalSec: 60,
      failed: 1898,
      retried: 5001,
      byOrigin: {
        [A]: { failed: { unreachable: 1800, rejected: 90 }, retried: { 503: 5000, timeout: 1 }, paused: 2, resumed: 1 },
        [B]: { failed: { unauthorized: 8 }, retried: {}, paused: 0, resumed: 0 },
      },
    });
    expect(lines).to.have.length(6);
  });

  it('when a new interval begins, then its first failure of each origin and class is logged in full again; an empty interval writes nothing', () => {
    const { log, lines } = recordingLog();
    const failures = createFailureLog(log, { intervalMs: 60_000 });
    failures.failed(A, 'unreachable', { subscriberId: 'x' });
    failures.flush();
    failures.flush();
    failures.failed(A, 'unreachable', { subscriberId: 'y' });
    failures.failed(A, 'unreachable', { subscriberId: 'z' });
    failures.flush();
    expect(lines.map((l) => [l.msg, l.fields.subscriberId ?? l.fields.failed])).to.deep.equal([
      ['push failed', 'x'],
      ['push failures summary', 1],
      ['push failed', 'y'],
      ['push failures summary', 2],
    ]);
  });

  it('when only retries happened, then the summary is at info; a refused destination is counted without a line of its own', () => {
    const { log, lines } = recordingLog();
    const failures = createFailureLog(log);
    failures.retried(A, 'reset');
    failures.failed(B, 'refused', { reason: 'destination refused: port 8443 is not 443' }, true);
    failures.flush();
    expect(lines.map((l) => [l.level, l.msg])).to.deep.equal([['warn', 'push failures summary']]);
    const { log: log2, lines: lines2 } = recordingLog();
    const retriesOnly = createFailureLog(log2);
    retriesOnly.retried(A, 'reset');
    retriesOnly.flush();
    expect(lines2.map((l) => [l.level, l.msg])).to.deep.equal([['info', 'push failures summary']]);
  });

  it('when failures come from many origins and causes, then a summary names the 20 busiest origins and 20 causes each; the rest are counted', () => {
    const { log, lines } = recordingLog();
    const failures = createFailureLog(log);
    for (let o = 0; o < 30; o++) for (let i = 0; i <= o; i++) failures.failed(`https://h${o}.notify.windows.com`, 'unreachable', {});
    for (let c = 0; c < 30; c++) failures.retried(A, `cause${c}`);
    failures.flush();
    const summary = lines.find((l) => l.msg === 'push failures summary')!.fields;
    const origins = Object.keys(summary.byOrigin as object);
    expect(origins).to.have.length(20);
    expect(origins).to.include('https://h29.notify.windows.com').and.not.include('https://h0.notify.windows.com');
    expect(summary.otherOrigins).to.equal(11);
    const causes = (summary.byOrigin as Record<string, { retried: Record<string, number> }>)[A].retried;
    expect(Object.keys(causes)).to.have.length(21);
    expect(causes.other).to.equal(10);
    expect(summary.failed).to.equal((30 * 31) / 2);
    expect(lines.filter((l) => l.msg === 'push failed')).to.have.length(30);
    failures.flush();
  });
});
