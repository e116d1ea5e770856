// One campaign: what it says, to whom and when, its analytics (sent, failed, expired,
// impressions, clicks, CTR, ITS) and a chart of impressions and clicks over time (the `series`
// endpoint), refreshed every few seconds while it sends and reports come in; what was sent, with
// its preview. Delete before it is sent; duplicate into the composer; a draft is edited there;
// once sent, its notification corrected or recalled on the devices (docs/console.md).
import { useMemo, useState } from 'preact/hooks';
import { BestTimeResults } from '../components/BestTimeResults';
import { Chart } from '../components/Chart';
import type { ChartSpec } from '../components/uplot-chart';
import { ConfirmDialog, ErrorBox, Loading, Notice, Stat, ViewerNote } from '../components/ui';
import { api } from '../lib/api';
import { NotificationPreview } from '../components/Preview';
import { campaignState, canChange, count, countryName, COUNTRY_PREFIX, hostOf, isLive, percent, sendingProgress, STATE_TEXT } from '../lib/format';
import { useInterval, useLoad, useTitle } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { showDate, showUtc } from '../lib/time';
import type { Campaign, CampaignRevision, CampaignSeries, CampaignUpdate, LocalTimePlan, SiteDetail } from '../lib/types';

/** Refresh period while the campaign sends or its reports still come in. */
const LIVE_MS = 3000;

/** Sends of a local-time plan moved to the end of the site's quiet hours. */
const heldSends = (plan: LocalTimePlan) => plan.sends.filter((s) => s.held).length;

/**
 * The chart of a campaign's series: every minute (hour) from the start of its sending, zero where
 * nothing was reported, up to the last report, or to now while it is live. Running totals are
 * drawn at the end of each step, from zero at the start; counts at each step's start.
 */
function seriesChart(data: CampaignSeries | undefined, shape: 'total' | 'rate', live: boolean, zone: string): ChartSpec {
  const step = data?.resolution === 'hour' ? 3600 : 60;
  const points = data?.points ?? [];
  const empty = { x: [], series: [], height: 260, zone } as ChartSpec;
  if (!data || (points.length === 0 && !data.startedAt)) return { ...empty, series: chartSeries([], []) };
  const bucket = (iso: string) => Math.floor(Date.parse(iso) / 1000 / step) * step;
  const first = Math.min(...[data.startedAt ? bucket(data.startedAt) : Infinity, ...points.map((p) => bucket(p.at))]);
  let last = Math.max(first, ...points.map((p) => bucket(p.at)));
  if (live) last = Math.max(last, Math.floor(Date.now() / 1000 / step) * step);
  // At most a year of hours or two days of minutes: anything longer is cut at its start.
  const from = Math.max(first, last - 9000 * step);
  const byStep = new Map(points.map((p) => [bucket(p.at), p]));
  const x: number[] = [];
  const impressions: number[] = [];
  const clicks: number[] = [];
  let ti = 0;
  let tc = 0;
  for (const p of points) if (bucket(p.at) < from) (ti += p.impressions), (tc += p.clicks);
  if (shape === 'total') {
    x.push(from);
    impressions.push(ti);
    clicks.push(tc);
  }
  for (let t = from; t <= last; t += step) {
    const p = byStep.get(t);
    if (shape === 'total') {
      ti += p?.impressions ?? 0;
      tc += p?.clicks ?? 0;
      // The end of the step, or now for the step in progress.
      x.push(Math.min(t + step, Math.max(t + 1, Math.floor(Date.now() / 1000))));
      impressions.push(ti);
      clicks.push(tc);
    } else {
      x.push(t);
      impressions.push(p?.impressions ?? 0);
      clicks.push(p?.clicks ?? 0);
    }
  }
  // While it sends, the axis shows at least its first quarter hour (day), filling as reports come.
  return { x, series: chartSeries(impressions, clicks), height: 260, timeUnit: data.resolution, zone, minXSpan: live ? 15 * step : undefined };
}

function chartSeries(impressions: number[], clicks: number[]): ChartSpec['series'] {
  return [
    { label: 'Impressions', values: impressions, color: '#1d4ed8' },
    { label: 'Clicks', values: clicks, color: '#c2410c' },
  ];
}

export function CampaignPage({ site, campaignId }: { site: SiteDetail; campaignId: string }) {
  const { zone } = useZone();
  const campaign = useLoad<Campaign>(() => api.campaign(site.id, campaignId), [site.id, campaignId]);
  const series = useLoad<CampaignSeries>(() => api.series(site.id, campaignId), [site.id, campaignId]);
  const [deleting, setDeleting] = useState(false);
  const [picking, setPicking] = useState<number | null>(null);
  // The notification corrected or recalled on the devices (docs/api-decisions.md, "Update and recall").
  const [revising, setRevising] = useState<'update' | 'recall' | null>(null);
  const [correction, setCorrection] = useState<Required<Pick<CampaignUpdate, 'title' | 'body' | 'link'>>>({ title: '', body: '', link: '' });
  const [shows, setShows] = useState<typeof correction | null>(null);
  const [revised, setRevised] = useState<CampaignRevision | null>(null);
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
  const points = series.data?.points ?? [];
  const spec = useMemo(() => seriesChart(series.data, shape, live, zone), [series.data, zone, shape, live]);
  // The table lists the minutes (hours) with reports, as totals or counts like the chart.
  const tableRows = useMemo(() => {
    let i = 0;
    let k = 0;
    return points.map((p) => {
      i += p.impressions;
      k += p.clicks;
      return { label: showDate(p.at, zone), values: shape === 'total' ? [count(i), count(k)] : [count(p.impressions), count(p.clicks)] };
    });
  }, [points, shape, zone]);
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
  const progress = sendingProgress(c, zone);
  // A viewer changes nothing: no control that would (the API refuses them all with 403).
  const changes = canChange(site.role);
  const deletable = changes && (c.status === 'draft' || Date.parse(c.scheduleDate) > Date.now()) && site.plan.permissions.includes('delete');
  // Editing a draft may send it: the create's permission, as the API asks.
  const editable = changes && c.status === 'draft' && site.plan.permissions.includes('create');
  const d = c.delivery;
  // The customer may pick the winner while the test runs (the rest then get it at once).
  const canPick = changes && c.abTest !== undefined && c.abTest.winner === null && c.status === 'published' && site.plan.permissions.includes('create');
  // Once every push has its outcome the devices' notification can be corrected or recalled;
  // a recall is final. Both change what devices show: the create's permission, as the API asks.
  const revisable = changes && state === 'sent' && c.status === 'published' && revised?.action !== 'recall' && site.plan.permissions.includes('create');
  const showing = shows ?? { title: c.title, body: c.body, link: c.link };
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
      {progress.length ? (
        <p class="send-progress" data-testid="send-progress">
          {progress.join(' · ')}
        </p>
      ) : null}
      <div class="actions">
        {editable ? (
          <a class="btn btn-primary" href={href(sitePath(site.id, `/campaigns/${encodeURIComponent(c.id)}/edit`))}>
            Edit draft
          </a>
        ) : null}
        {changes ? (
          <a class="btn" href={href(sitePath(site.id, `/campaigns/new?from=${encodeURIComponent(c.id)}`))}>
            Duplicate
          </a>
        ) : null}
        {deletable ? (
          <button type="button" class="btn btn-danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        ) : null}
        {revisable ? (
          <>
            <button
              type="button"
              class="btn"
              onClick={() => {
                setCorrection(showing);
                setRevising('update');
              }}
            >
              Correct notification
            </button>
            <button type="button" class="btn btn-danger" onClick={() => setRevising('recall')}>
              Recall
            </button>
          </>
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
      {changes ? null : <ViewerNote />}
      <ErrorBox error={campaign.error} />
      {revised ? (
        <Notice>
          {revised.action === 'recall'
            ? `Recalled (${showDate(revised.revisedAt, zone)}): the notification is being withdrawn from the devices it was sent to.`
            : `Correction ${revised.revision} sent (${showDate(revised.revisedAt, zone)}): the devices that still show the notification show the corrected one.`}
        </Notice>
      ) : null}

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
          rows={tableRows}
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
                  {canPick ? <th scope="col">Winner</th> : null}
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
                    {canPick ? (
                      <td>
                        <button type="button" class="btn btn-small" onClick={() => setPicking(r.variant)}>
                          Pick {String.fromCharCode(65 + r.variant)}
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}

      {c.sendTime ? <BestTimeResults sendTime={c.sendTime} zone={zone} /> : null}

      <div class="card">
        <h2>{c.status === 'draft' ? 'What it will send' : 'What was sent'}</h2>
        <div class="sent-grid">
          <dl class="facts" id="campaign-content">
            <dt>Title</dt>
            <dd>{c.title}</dd>
            <dt>Text</dt>
            <dd>{c.body}</dd>
            <dt>Link</dt>
            <dd class="break">{c.link || '—'}</dd>
            <dt>Icon</dt>
            <dd class="break">{c.icon ?? '—'}</dd>
            <dt>Image</dt>
            <dd class="break">{c.image ?? '—'}</dd>
            <dt>Button</dt>
            <dd>{c.callToAction || '—'}</dd>
            {c.utmSource || c.utmMedium || c.utmCampaign ? (
              <>
                <dt>UTM</dt>
                <dd class="break">{[['utm_source', c.utmSource], ['utm_medium', c.utmMedium], ['utm_campaign', c.utmCampaign]].filter(([, v]) => v).map(([k, v]) => `${k}=${v}`).join(', ')}</dd>
              </>
            ) : null}
          </dl>
          <div aria-label="Preview" role="group">
            <NotificationPreview content={{ title: c.title, body: c.body, icon: c.icon ?? '', image: c.image ?? '', callToAction: c.callToAction, host: hostOf(c.link) }} />
          </div>
        </div>
      </div>

      <div class="card">
        <h2>Audience and sending</h2>
        <dl class="facts">
          <dt>Topics</dt>
          <dd>{topics.length ? topics.join(', ') : '—'}</dd>
          <dt>Countries</dt>
          <dd>{countries.length ? countries.map(countryName).join(', ') : '—'}</dd>
          <dt>Audience when scheduled</dt>
          <dd>{count(c.totalUsers)} subscribers</dd>
          <dt>{c.scheduleMode === 'scheduled' ? 'Send date' : c.status === 'draft' ? 'Send' : 'Sent'}</dt>
          <dd>
            {c.scheduleMode === 'now' && c.status === 'draft' ? (
              'At once, when the draft is sent'
            ) : (
              <>
                {showDate(c.scheduleDate, zone)} <span class="muted small">({showUtc(c.scheduleDate)})</span>
              </>
            )}
          </dd>
          {c.localTime ? (
            <>
              <dt>Local time</dt>
              <dd>
                {c.localTime.time} in each subscriber's zone on {c.localTime.date}: {c.localTime.sends.length} sends from {showDate(c.localTime.firstSendAt, zone)} to{' '}
                {showDate(c.localTime.lastSendAt, zone)}
                {heldSends(c.localTime) > 0 ? `; ${heldSends(c.localTime)} held to the end of the site's quiet hours` : ''}
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
      <ConfirmDialog
        open={revising === 'update'}
        title="Correct the notification on the devices?"
        confirmLabel="Send the correction"
        onClose={() => setRevising(null)}
        onConfirm={async () => {
          const changed = (Object.keys(correction) as (keyof typeof correction)[]).filter((k) => correction[k] !== showing[k]);
          const body: CampaignUpdate = Object.fromEntries(changed.map((k) => [k, correction[k]]));
          setRevised(await api.updateSent(site.id, c.id, body));
          setShows(correction);
        }}
      >
        <p>Devices that still show it get the corrected text in its place, without a new alert; devices where it was closed are left alone. The campaign's results stay as they are.</p>
        <div class="field">
          <label for="correct-title">Title</label>
          <input id="correct-title" value={correction.title} maxLength={100} onInput={(e) => setCorrection({ ...correction, title: (e.currentTarget as HTMLInputElement).value })} />
        </div>
        <div class="field">
          <label for="correct-body">Text</label>
          <textarea id="correct-body" value={correction.body} maxLength={300} onInput={(e) => setCorrection({ ...correction, body: (e.currentTarget as HTMLTextAreaElement).value })} />
        </div>
        <div class="field">
          <label for="correct-link">Link</label>
          <input id="correct-link" type="url" value={correction.link} onInput={(e) => setCorrection({ ...correction, link: (e.currentTarget as HTMLInputElement).value })} />
        </div>
      </ConfirmDialog>
      <ConfirmDialog
        open={revising === 'recall'}
        title="Recall this campaign's notification?"
        confirmLabel="Recall"
        danger
        onClose={() => setRevising(null)}
        onConfirm={async () => {
          setRevised(await api.recall(site.id, c.id));
        }}
      >
        <p>The notification is closed on every device that still shows it, and never shown on those that have not received it yet. This cannot be undone: a recalled campaign can no longer be corrected.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={picking !== null}
        title={`Send variant ${String.fromCharCode(65 + (picking ?? 0))} to the rest?`}
        confirmLabel="Pick the winner"
        onClose={() => setPicking(null)}
        onConfirm={async () => {
          await api.pickWinner(site.id, c.id, picking ?? 0);
          setPicking(null);
          await campaign.reload(true);
        }}
      >
        <p>The test ends now: the rest of the audience gets this variant from now on, instead of the best one when the window ends.</p>
      </ConfirmDialog>
    </section>
  );
}
