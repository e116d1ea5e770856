// A best-time campaign's results on its page (docs/console.md, "Campaigns"; docs/api-decisions.md,
// "Best time"): the lift over the holdout in click and impression rates with its 95 % interval,
// the two groups side by side, and each hour it sent in with its own figures and a bar of its
// sends — a table first, so a screen reader and the keyboard get every number.
import { count, percent } from '../lib/format';
import { showDate } from '../lib/time';
import type { RateLift, SendTime, SendTimeGroup } from '../lib/types';

/** `+2.78 points (1.8 to 3.55), +137.6 %`; the interval said to be unknown while a group has sent nothing. */
export function liftText(l: RateLift): string {
  const signed = (n: number) => `${n > 0 ? '+' : ''}${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
  const interval = l.low === null || l.high === null ? 'interval not known yet' : `95 % interval ${signed(l.low)} to ${signed(l.high)}`;
  const relative = l.relative === null ? '' : `, ${signed(l.relative)} % relative`;
  return `${signed(l.difference)} points (${interval})${relative}`;
}

function GroupRow({ label, g }: { label: string; g: SendTimeGroup }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td class="num">{count(g.planned)}</td>
      <td class="num">{count(g.sent)}</td>
      <td class="num">{count(g.impressions)}</td>
      <td class="num">{count(g.clicks)}</td>
      <td class="num">{percent(g.impressionRate)}</td>
      <td class="num">{percent(g.clickRate)}</td>
    </tr>
  );
}

export function BestTimeResults({ sendTime, zone }: { sendTime: SendTime; zone: string }) {
  const r = sendTime.results;
  const top = Math.max(1, ...r.byHour.map((h) => h.planned));
  return (
    <div class="card" data-testid="best-time-results">
      <h2>Best time</h2>
      <p>
        Each subscriber sent in their likeliest hour within {sendTime.within}; {sendTime.holdout} % held out and sent at once to measure the lift.
      </p>
      <dl class="lift">
        <dt>Lift in click rate (clicks per push sent)</dt>
        <dd data-testid="lift-click">{liftText(r.lift.clickRate)}</dd>
        <dt>Lift in impression rate (impressions per push sent)</dt>
        <dd>{liftText(r.lift.impressionRate)}</dd>
      </dl>
      <div class="table-scroll" role="region" aria-label="Best time against the holdout" tabIndex={0}>
        <table>
          <caption class="sr-only">Best time against the holdout</caption>
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col" class="num">Planned</th>
              <th scope="col" class="num">Sent</th>
              <th scope="col" class="num">Impressions</th>
              <th scope="col" class="num">Clicks</th>
              <th scope="col" class="num">Impression rate</th>
              <th scope="col" class="num">Click rate</th>
            </tr>
          </thead>
          <tbody>
            <GroupRow label="Best time" g={r.bestTime} />
            <GroupRow label="Holdout (at once)" g={r.holdout} />
          </tbody>
        </table>
      </div>
      {r.byHour.length === 0 ? (
        <p class="muted">No hour sent yet.</p>
      ) : (
        <div class="table-scroll" role="region" aria-label="Results by hour sent" tabIndex={0}>
          <table class="plan-table" data-testid="best-time-hours">
            <caption>Results by hour sent ({zone})</caption>
            <thead>
              <tr>
                <th scope="col">Sent at</th>
                <th scope="col" class="num">Planned</th>
                <th scope="col" class="num">Sent</th>
                <th scope="col" class="num">Impressions</th>
                <th scope="col" class="num">Clicks</th>
                <th scope="col" class="num">CTR</th>
                <th scope="col" class="num">Click rate</th>
                <th scope="col">
                  <span class="sr-only">Planned as a bar</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {r.byHour.map((h) => (
                <tr key={h.sendAt}>
                  <th scope="row">
                    {showDate(h.sendAt, zone)}
                    {h.hour === null ? '' : ` (${String(h.hour).padStart(2, '0')}:00 UTC)`}
                  </th>
                  <td class="num">{count(h.planned)}</td>
                  <td class="num">{count(h.sent)}</td>
                  <td class="num">{count(h.impressions)}</td>
                  <td class="num">{count(h.clicks)}</td>
                  <td class="num">{percent(h.ctr)}</td>
                  <td class="num">{percent(h.clickRate)}</td>
                  <td class="bar-cell" aria-hidden="true">
                    <span class="bar" style={{ width: `${(h.planned / top) * 100}%` }} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
