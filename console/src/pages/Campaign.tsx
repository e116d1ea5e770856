// One campaign: what it says, to whom and when, its analytics (sent, failed, expired,
// impressions, clicks, CTR, ITS) and a chart of impressions and clicks over time (the `series`
// endpoint), refreshed every few seconds while it sends and reports come in. Delete before it is
// sent; duplicate into the composer.
import { useMemo, useState } from 'preact/hooks';
import { Chart } from '../components/Chart';
import { ConfirmDialog, ErrorBox, Loading, Stat } from '../components/ui';
import { api } from '../lib/api';
import { campaignState, count, countryName, COUNTRY_PREFIX, percent, STATE_TEXT } from '../lib/format';
import { useInterval, useLoad, useTitle } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { showDate, showUtc } from '../lib/time';
import type { Campaign, CampaignSeries, SiteDetail } from '../lib/types';

/** Refresh period while the campaign sends or its reports still come in. */
const LIVE_MS = 3000;
/** Impressions and clicks keep arriving after the last push: watched this long after it. */
const REPORTS_WINDOW_MS = 15 * 60_000;

function isLive(c: Campaign, now: number): boolean {
  if (c.status !== 'published') return false;
  const first = Date.parse(c.scheduleDate);
  const last = c.localTime ? Date.parse(c.localTime.lastSendAt) : first;
  if (first > now) return false;
  if ((c.delivery?.pending ?? 0) > 0) return true;
  return now - last < REPORTS_WINDOW_MS || (c.abTest !== undefined && c.abTest.winner === null);
}

export function CampaignPage({ site, campaignId }: { site: SiteDetail; campaignId: string }) {
  const { zone } = useZone();
  const campaign = useLoad<Campaign>(() => api.campaign(site.id, campaignId), [site.id, campaignId]);
  const series = useLoad<CampaignSeries>(() => api.series(site.id, campaignId), [site.id, campaignId]);
  const [deleting, setDeleting] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number>(Date.now());
  const c = campaign.data;
  useTitle(c ? `${c.title} · Campaign` : 'Campaign');
  const live = c ? isLive(c, Date.now()) : false;
  useInterval(
    () => {
      void Promise.all([campaign.reload(true), series.reload(true)]).then(() => setUpdatedAt(Date.now()));
    },
    LIVE_MS,
    live,
  );

  // Running totals by default (they rise as reports arrive, up to the figures above), or per minute/hour.
  const [shape, setShape] = useState<'total' | 'rate'>('total');
  const step = series.data?.resolution === 'hour' ? 3600 : 60;
  const points = series.data?.points ?? [];
  const spec = useMemo(() => {
    const x = points.map((p) => Date.parse(p.at) / 1000);
    let impressions = points.map((p) => p.impressions);
    let clicks = points.map((p) => p.clicks);
    if (shape === 'total') {
      let i = 0;
      let k = 0;
      impressions = impressions.map((n) => (i += n));
      clicks = clicks.map((n) => (k += n));
    }
    // The line starts from zero, the step before the first report.
    if (x.length > 0) {
      x.unshift(x[0] - step);
      impressions.unshift(0);
      clicks.unshift(0);
    }
    return {
      x,
      series: [
        { label: 'Impressions', values: impressions, color: '#1d4ed8' },
        { label: 'Clicks', values: clicks, color: '#c2410c' },
      ],
      height: 260,
      timeUnit: series.data?.resolution ?? 'minute',
      zone,
    };
  }, [series.data, zone, shape]);
  const per = series.data?.resolution === 'hour' ? 'hour' : 'minute';

  if (campaign.error && !c) {
    return (
      <section>
        <h1 tabIndex={-1}>Campaign</h1>
        <ErrorBox error={campaign.error} />
        <p>
          <a href={href(sitePath(site.id, '/campaigns'))}>Back to the campaigns</a>
        </p>
      </section>
    );
  }
  if (!c) return <Loading what="Loading the campaign" />;

  const state = campaignState(c);
  const deletable = (c.status === 'draft' || Date.parse(c.scheduleDate) > Date.now()) && site.plan.permissions.includes('delete');
  const d = c.delivery;
  const topics = c.topics.filter((t) => !t.startsWith(COUNTRY_PREFIX));
  const countries = c.topics.filter((t) => t.startsWith(COUNTRY_PREFIX));

  return (
    <section>
      <p class="crumbs">
        <a href={href(sitePath(site.id, '/campaigns'))}>Campaigns</a>
      </p>
      <div class="page-head">
        <h1 tabIndex={-1}>{c.title}</h1>
        <span class={`badge badge-${state}`}>{STATE_TEXT[state]}</span>
      </div>
      <div class="actions">
        <a class="btn" href={href(sitePath(site.id, `/campaigns/new?from=${encodeURIComponent(c.id)}`))}>
          Duplicate
        </a>
        {deletable ? (
          <button type="button" class="btn btn-danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        ) : null}
        <button
          type="button"
          class="btn"
          onClick={() => void Promise.all([campaign.reload(true), series.reload(true)]).then(() => setUpdatedAt(Date.now()))}
        >
          Refresh
        </button>
        <span class="muted small live" aria-live="off">
          {live ? `Live: updated every ${LIVE_MS / 1000} s (last ${new Date(updatedAt).toLocaleTimeString('en-GB', { timeZone: zone })})` : ''}
        </span>
      </div>
      <ErrorBox error={campaign.error} />

      <div class="card">
        <h2>Results</h2>
        <dl class="stats" id="campaign-stats">
          <Stat label="Sent" value={count(d?.sent ?? 0)} hint={d && d.pending > 0 ? `${count(d.pending)} pending` : undefined} />
          <Stat label="Failed" value={count(d?.failed ?? 0)} />
          <Stat label="Expired" value={count(d?.expired ?? 0)} />
          <Stat label="Impressions" value={count(c.analytics.impressions)} />
          <Stat label="Clicks" value={count(c.analytics.clicks)} />
          <Stat label="CTR" value={percent(c.analytics.ctr)} hint="clicks / impressions" />
          <Stat label="ITS" value={percent(c.analytics.its)} hint={`impressions / audience of ${count(c.analytics.totalUsers)}`} />
          {d?.capped ? <Stat label="Capped" value={count(d.capped)} hint="at their frequency cap" /> : null}
        </dl>
        {d && d.failed > 0 ? (
          <p class="muted small">
            Failed by cause:{' '}
            {Object.entries(d.failedBy)
              .filter(([, n]) => n > 0)
              .map(([k, n]) => `${k} ${count(n)}`)
              .join(', ')}
          </p>
        ) : null}
        <ErrorBox error={series.error} />
        <div class="field field-inline">
          <label for="series-shape">Chart</label>
          <select id="series-shape" value={shape} onChange={(e) => setShape((e.currentTarget as HTMLSelectElement).value as 'total' | 'rate')}>
            <option value="total">Running totals</option>
            <option value="rate">Per {per}</option>
          </select>
        </div>
        <Chart
          title={shape === 'total' ? `Impressions and clicks so far, by ${per} (${zone})` : `Impressions and clicks per ${per} (${zone})`}
          spec={spec}
          rowLabel={per === 'hour' ? 'Hour' : 'Minute'}
          rows={points.map((p, i) => ({ label: showDate(p.at, zone), values: spec.series.map((s) => count(s.values[i + 1])) }))}
          empty={c.status === 'published' ? 'No impressions or clicks yet.' : 'Nothing is sent for a draft.'}
        />
      </div>

      {c.abTest ? (
        <div class="card">
          <h2>A/B test</h2>
          <p>
            {c.abTest.testPercent} % of the audience tested; winner by {c.abTest.winnerMetric === 'ctr' ? 'CTR' : 'impressions'} after {c.abTest.windowMinutes} minutes.{' '}
            {c.abTest.winner ? `Winner: variant ${String.fromCharCode(65 + c.abTest.winner.variant)} (${c.abTest.winner.by === 'customer' ? 'picked' : 'by the metric'}, ${showDate(c.abTest.winner.decidedAt, zone)}).` : 'No winner yet.'}
          </p>
          <div class="table-scroll" role="region" aria-label="A/B test results" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Variant</th>
                  <th scope="col">Title</th>
                  <th scope="col" class="num">Sent</th>
                  <th scope="col" class="num">Impressions</th>
                  <th scope="col" class="num">Clicks</th>
                  <th scope="col" class="num">CTR</th>
                </tr>
              </thead>
              <tbody>
                {c.abTest.results.map((r) => (
                  <tr key={r.variant}>
                    <th scope="row">{String.fromCharCode(65 + r.variant)}</th>
                    <td>{c.abTest!.variants[r.variant]?.title ?? c.title}</td>
                    <td class="num">{count(r.sent)}</td>
                    <td class="num">{count(r.impressions)}</td>
                    <td class="num">{count(r.clicks)}</td>
                    <td class="num">{percent(r.ctr)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}

      <div class="card">
        <h2>Message and audience</h2>
        <dl class="facts">
          <dt>Text</dt>
          <dd>{c.body}</dd>
          <dt>Link</dt>
          <dd class="break">{c.link || '—'}</dd>
          {c.callToAction ? (
            <>
              <dt>Button</dt>
              <dd>{c.callToAction}</dd>
            </>
          ) : null}
          <dt>Topics</dt>
          <dd>{topics.length ? topics.join(', ') : '—'}</dd>
          <dt>Countries</dt>
          <dd>{countries.length ? countries.map(countryName).join(', ') : '—'}</dd>
          <dt>Audience when scheduled</dt>
          <dd>{count(c.totalUsers)} subscribers</dd>
          <dt>{c.scheduleMode === 'now' ? 'Sent' : 'Send date'}</dt>
          <dd>
            {showDate(c.scheduleDate, zone)} <span class="muted small">({showUtc(c.scheduleDate)})</span>
          </dd>
          {c.localTime ? (
            <>
              <dt>Local time</dt>
              <dd>
                {c.localTime.time} in each subscriber's zone on {c.localTime.date}: {c.localTime.sends.length} sends from {showDate(c.localTime.firstSendAt, zone)} to{' '}
                {showDate(c.localTime.lastSendAt, zone)}
              </dd>
            </>
          ) : null}
          {c.throttlePerMinute ? (
            <>
              <dt>Throttle</dt>
              <dd>{count(c.throttlePerMinute)} pushes a minute</dd>
            </>
          ) : null}
          {c.segment ? (
            <>
              <dt>Segment</dt>
              <dd class="mono small break">{JSON.stringify(c.segment)}</dd>
            </>
          ) : null}
          <dt>Created</dt>
          <dd>{showDate(c.createdAt, zone)}</dd>
          <dt>Valid for offline devices</dt>
          <dd>{Math.round((c.ttl / 86400) * 10) / 10} days</dd>
        </dl>
      </div>

      <ConfirmDialog
        open={deleting}
        title="Delete this campaign?"
        confirmLabel="Delete campaign"
        danger
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await api.deleteCampaign(site.id, c.id);
          navigate(sitePath(site.id, '/campaigns'));
        }}
      >
        <p>{c.status === 'draft' ? 'The draft is deleted.' : 'The scheduled send is cancelled and the campaign deleted.'}</p>
      </ConfirmDialog>
    </section>
  );
}
