// The audience: topics and countries with their subscribers; renaming, merging and deleting
// topics (each confirmed); subscribers per day (new, expired, active) and by browser as charts;
// the opt-in funnel (prompts shown, accepted, dismissed, denied; subscriptions and opt-outs they
// led to) per prompt with its rates, per day as a chart, and per day and prompt as a table.
import { useMemo, useState } from 'preact/hooks';
import { Chart } from '../components/Chart';
import { ConfirmDialog, ErrorBox, Loading, Notice, TextField, ViewerNote } from '../components/ui';
import { api } from '../lib/api';
import { canChange, count, countryName, rate } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { useZone } from '../lib/session';
import type { BrowserCount, DailyAudience, NameCount, OptInFunnel, SiteDetail } from '../lib/types';

const BROWSER_NAMES: Record<string, string> = { chrome: 'Chrome', edge: 'Edge', firefox: 'Firefox', safari: 'Safari', other: 'Other' };

export function AudiencePage({ site }: { site: SiteDetail }) {
  useTitle(`Audience · ${site.name}`);
  const topics = useLoad<NameCount[]>(() => api.topics(site.id), [site.id]);
  const countries = useLoad<NameCount[]>(() => api.countries(site.id), [site.id]);
  const allowed = site.plan.permissions.includes('audience');
  return (
    <section>
      <h1 tabIndex={-1}>Audience</h1>
      {!allowed ? <Notice>This site's plan does not include topics and countries: they are listed empty.</Notice> : null}
      <TopicsCard site={site} topics={topics.data} error={topics.error} loading={topics.loading} reload={async () => {
        await Promise.all([topics.reload(true), countries.reload(true)]);
      }} />
      <div class="card">
        <h2>Countries</h2>
        <ErrorBox error={countries.error} />
        {countries.data ? (
          countries.data.length === 0 ? (
            <p class="muted">No subscribers yet.</p>
          ) : (
            <div class="table-scroll" role="region" aria-label="Countries" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Country</th>
                    <th scope="col" class="num">
                      Subscribers
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {countries.data.map((c) => (
                    <tr key={c.name}>
                      <td>
                        {countryName(c.name)} <span class="muted small mono">{c.name}</span>
                      </td>
                      <td class="num">{count(c.users)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : countries.loading ? (
          <Loading what="Loading the countries" />
        ) : null}
      </div>
      <DailyCard site={site} />
      <BrowsersCard site={site} />
      <FunnelCard site={site} />
    </section>
  );
}

type TopicAction = { kind: 'rename'; name: string } | { kind: 'delete'; name: string } | { kind: 'merge'; names: string[] };

function TopicsCard(props: { site: SiteDetail; topics?: NameCount[]; error: unknown; loading: boolean; reload: () => Promise<void> }) {
  const { site, topics } = props;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<TopicAction | null>(null);
  const [target, setTarget] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const selectedNames = topics ? topics.filter((t) => selected.has(t.name)).map((t) => t.name) : [];
  // A viewer sees the topics without the controls that change them.
  const changes = canChange(site.role);

  const open = (a: TopicAction) => {
    setDone(null);
    setTarget(a.kind === 'rename' ? a.name : a.kind === 'merge' ? a.names[0] : '');
    setAction(a);
  };

  return (
    <div class="card">
      <h2>Topics</h2>
      {changes ? null : <ViewerNote />}
      <ErrorBox error={props.error} />
      {done ? <Notice>{done}</Notice> : null}
      {topics ? (
        topics.length === 0 ? (
          <p class="muted">No topics yet: they appear as subscribers read your pages.</p>
        ) : (
          <>
            <div class="table-scroll" role="region" aria-label="Topics" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    {changes ? (
                      <th scope="col">
                        <span class="sr-only">Select for merging</span>
                      </th>
                    ) : null}
                    <th scope="col">Topic</th>
                    <th scope="col" class="num">
                      Subscribers
                    </th>
                    {changes ? (
                      <th scope="col">
                        <span class="sr-only">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {topics.map((t) => (
                    <tr key={t.name} data-topic={t.name}>
                      {changes ? (
                        <td>
                          <input
                            type="checkbox"
                            aria-label={`Select ${t.name} for merging`}
                            checked={selected.has(t.name)}
                            onChange={(e) => {
                              const next = new Set(selected);
                              if ((e.currentTarget as HTMLInputElement).checked) next.add(t.name);
                              else next.delete(t.name);
                              setSelected(next);
                            }}
                          />
                        </td>
                      ) : null}
                      <td>{t.name}</td>
                      <td class="num topic-users">{count(t.users)}</td>
                      {changes ? (
                        <td class="row-actions">
                          <button type="button" class="btn btn-small" aria-label={`Rename ${t.name}`} onClick={() => open({ kind: 'rename', name: t.name })}>
                            Rename
                          </button>
                          <button type="button" class="btn btn-small btn-danger" aria-label={`Delete ${t.name}`} onClick={() => open({ kind: 'delete', name: t.name })}>
                            Delete
                          </button>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {changes ? (
              <div class="actions">
                <button type="button" class="btn" disabled={selectedNames.length < 2} onClick={() => open({ kind: 'merge', names: selectedNames })}>
                  Merge selected topics{selectedNames.length ? ` (${selectedNames.length})` : ''}
                </button>
                <span class="muted small">Select two or more topics to merge them into one.</span>
              </div>
            ) : null}
          </>
        )
      ) : props.loading ? (
        <Loading what="Loading the topics" />
      ) : null}
      <ConfirmDialog
        open={action !== null}
        title={action?.kind === 'rename' ? `Rename “${action.name}”` : action?.kind === 'delete' ? `Delete “${action.name}”?` : 'Merge topics'}
        confirmLabel={action?.kind === 'rename' ? 'Rename' : action?.kind === 'delete' ? 'Delete topic' : 'Merge'}
        danger={action?.kind === 'delete'}
        onClose={() => setAction(null)}
        onConfirm={async () => {
          if (!action) return;
          const to = target.trim();
          if (action.kind === 'rename') {
            const r = await api.renameTopic(site.id, action.name, to);
            setDone(`“${action.name}” is now “${to}” (${count(r.subscribers)} subscribers).`);
          } else if (action.kind === 'delete') {
            const r = await api.deleteTopic(site.id, action.name);
            setDone(`“${action.name}” is deleted (${count(r.subscribers)} subscribers had it).`);
          } else {
            const r = await api.mergeTopics(site.id, action.names, to);
            setDone(`Merged into “${to}” (${count(r.subscribers)} subscribers).`);
          }
          setSelected(new Set());
          await props.reload();
        }}
      >
        {action?.kind === 'delete' ? (
          <p>Subscribers keep their subscription; they are no longer in this topic. Campaigns already sent are not changed.</p>
        ) : (
          <>
            {action?.kind === 'merge' ? (
              <p>
                Subscribers of <strong>{action.names.join(', ')}</strong> will be in one topic.
              </p>
            ) : null}
            <TextField label={action?.kind === 'merge' ? 'Name of the merged topic' : 'New name'} hint="Topic names are lowercase." value={target} onValue={setTarget} />
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}

function DailyCard({ site }: { site: SiteDetail }) {
  const [days, setDays] = useState(30);
  const daily = useLoad<DailyAudience[]>(() => api.daily(site.id, days), [site.id, days]);
  const { zone } = useZone();
  const spec = useMemo(() => {
    const rows = daily.data ?? [];
    return {
      x: rows.map((r) => Date.parse(`${r.day.slice(0, 10)}T12:00:00Z`) / 1000),
      series: [
        { label: 'Active', values: rows.map((r) => r.active), color: '#1d4ed8', right: true },
        { label: 'New', values: rows.map((r) => r.new), color: '#047857', bars: false },
        { label: 'Expired', values: rows.map((r) => r.expired), color: '#b91c1c', dash: [6, 4] },
      ],
      height: 260,
      timeUnit: 'day' as const,
      zone: 'UTC',
    };
  }, [daily.data]);
  return (
    <div class="card">
      <h2>Subscribers per day</h2>
      <div class="field field-inline">
        <label for="daily-days">Period</label>
        <select id="daily-days" value={String(days)} onChange={(e) => setDays(Number((e.currentTarget as HTMLSelectElement).value))}>
          <option value="7">Last 7 days</option>
          <option value="30">Last 30 days</option>
          <option value="90">Last 90 days</option>
          <option value="365">Last 365 days</option>
        </select>
      </div>
      <ErrorBox error={daily.error} />
      {daily.data ? (
        <Chart
          title="New and expired subscribers per day (left axis) and active subscribers at each day's end (right axis), by UTC day"
          spec={spec}
          rowLabel="Day (UTC)"
          rows={(daily.data ?? []).map((r) => ({ label: r.day.slice(0, 10), values: [count(r.active), count(r.new), count(r.expired)] }))}
          empty="No subscribers in this period."
        />
      ) : daily.loading ? (
        <Loading what="Loading the daily counts" />
      ) : null}
      {zone !== 'UTC' ? <p class="muted small">Days are UTC days.</p> : null}
    </div>
  );
}

function BrowsersCard({ site }: { site: SiteDetail }) {
  const browsers = useLoad<BrowserCount[]>(() => api.browsers(site.id), [site.id]);
  const spec = useMemo(() => {
    const rows = browsers.data ?? [];
    return {
      x: rows.map((_, i) => i),
      categories: rows.map((r) => BROWSER_NAMES[r.browser] ?? r.browser),
      series: [{ label: 'Subscribers', values: rows.map((r) => r.users), color: '#1d4ed8', bars: true }],
      height: 220,
    };
  }, [browsers.data]);
  return (
    <div class="card">
      <h2>Subscribers by browser</h2>
      <ErrorBox error={browsers.error} />
      {browsers.data ? (
        <Chart
          title="Active subscribers by browser"
          spec={spec}
          rowLabel="Browser"
          rows={browsers.data.map((r) => ({ label: BROWSER_NAMES[r.browser] ?? r.browser, values: [count(r.users)] }))}
          empty="No subscribers yet."
        />
      ) : browsers.loading ? (
        <Loading what="Loading the browsers" />
      ) : null}
    </div>
  );
}

const FUNNEL_EVENTS = [
  ['shown', 'Shown'],
  ['accepted', 'Accepted'],
  ['dismissed', 'Dismissed'],
  ['denied', 'Denied by the browser'],
  ['subscribed', 'Subscribed'],
  ['unsubscribed', 'Unsubscribed'],
] as const;

/** A prompt id as the page names it: the site's own button, the day's overflow, or the prompt's own id. */
function promptName(id: string): string {
  return id === 'site' ? 'Site button' : id === '(other)' ? 'Other prompts' : id;
}

/** The UTC day `days - 1` days before today, and today, as YYYY-MM-DD. */
function lastDays(days: number): { from: string; to: string } {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  return { from: new Date(today - (days - 1) * 86_400_000).toISOString().slice(0, 10), to: new Date(today).toISOString().slice(0, 10) };
}

function FunnelCard({ site }: { site: SiteDetail }) {
  const [days, setDays] = useState(30);
  const allowed = site.plan.permissions.includes('reports');
  const funnel = useLoad<OptInFunnel | null>(() => (allowed ? api.optInFunnel(site.id, lastDays(days).from, lastDays(days).to) : Promise.resolve(null)), [site.id, days, allowed]);
  // Per day, every prompt together: what the chart draws.
  const perDay = useMemo(() => {
    const byDay = new Map<string, { shown: number; accepted: number; subscribed: number }>();
    for (const d of funnel.data?.days ?? []) {
      const sum = byDay.get(d.day) ?? { shown: 0, accepted: 0, subscribed: 0 };
      byDay.set(d.day, { shown: sum.shown + d.shown, accepted: sum.accepted + d.accepted, subscribed: sum.subscribed + d.subscribed });
    }
    return [...byDay.entries()].map(([day, c]) => ({ day, ...c }));
  }, [funnel.data]);
  const spec = useMemo(
    () => ({
      x: perDay.map((r) => Date.parse(`${r.day}T12:00:00Z`) / 1000),
      series: [
        { label: 'Shown', values: perDay.map((r) => r.shown), color: '#1d4ed8' },
        { label: 'Accepted', values: perDay.map((r) => r.accepted), color: '#047857', dash: [6, 4] },
        { label: 'Subscribed', values: perDay.map((r) => r.subscribed), color: '#7c2d12' },
      ],
      height: 240,
      timeUnit: 'day' as const,
      zone: 'UTC',
    }),
    [perDay],
  );
  const data = funnel.data;
  return (
    <div class="card">
      <h2>Opt-in funnel</h2>
      {!allowed ? (
        <Notice>This site's plan does not include reports: the opt-in funnel is not shown.</Notice>
      ) : (
        <>
          <div class="field field-inline">
            <label for="funnel-days">Period</label>
            <select id="funnel-days" value={String(days)} onChange={(e) => setDays(Number((e.currentTarget as HTMLSelectElement).value))}>
              <option value="7">Last 7 days</option>
              <option value="30">Last 30 days</option>
              <option value="90">Last 90 days</option>
              <option value="365">Last 365 days</option>
            </select>
          </div>
          <ErrorBox error={funnel.error} />
          {data ? (
            <>
              <div class="table-scroll" role="region" aria-label="Opt-in funnel per prompt" tabIndex={0}>
                <table>
                  <caption class="sr-only">Opt-in funnel per prompt, {data.from} to {data.to} (UTC days)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Prompt</th>
                      {FUNNEL_EVENTS.map(([, label]) => (
                        <th scope="col" class="num" key={label}>
                          {label}
                        </th>
                      ))}
                      <th scope="col" class="num">
                        Accept rate
                      </th>
                      <th scope="col" class="num">
                        Subscribe rate
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.prompts.map((p) => (
                      <tr key={p.promptId} data-prompt={p.promptId}>
                        <th scope="row">{promptName(p.promptId)}</th>
                        {FUNNEL_EVENTS.map(([event]) => (
                          <td class="num" key={event}>
                            {count(p[event])}
                          </td>
                        ))}
                        <td class="num">{rate(p.acceptRate)}</td>
                        <td class="num">{rate(p.subscribeRate)}</td>
                      </tr>
                    ))}
                    <tr>
                      <th scope="row">All prompts</th>
                      {FUNNEL_EVENTS.map(([event]) => (
                        <td class="num" key={event}>
                          {count(data.totals[event])}
                        </td>
                      ))}
                      <td class="num">{rate(data.totals.acceptRate)}</td>
                      <td class="num">{rate(data.totals.subscribeRate)}</td>
                    </tr>
                  </tbody>
                </table>
              </div>
              <p class="muted small">
                Rates are of the prompts shown; the site button's subscriptions had no prompt, so they are left out of the rates. Days are UTC days.
              </p>
              <Chart
                title="Prompts shown, accepted, and subscriptions from them, per UTC day (every prompt)"
                spec={spec}
                rowLabel="Day (UTC)"
                rows={perDay.map((r) => ({ label: r.day, values: [count(r.shown), count(r.accepted), count(r.subscribed)] }))}
                empty="No prompt was shown in this period."
              />
              {data.days.length > 0 ? (
                <details class="chart-table">
                  <summary>Per day and prompt</summary>
                  <div class="table-scroll" role="region" aria-label="Opt-in funnel per day and prompt" tabIndex={0}>
                    <table>
                      <thead>
                        <tr>
                          <th scope="col">Day (UTC)</th>
                          <th scope="col">Prompt</th>
                          {FUNNEL_EVENTS.map(([, label]) => (
                            <th scope="col" class="num" key={label}>
                              {label}
                            </th>
                          ))}
                        </tr>
                      </thead>
                      <tbody>
                        {data.days.map((d) => (
                          <tr key={`${d.day} ${d.promptId}`}>
                            <td>{d.day}</td>
                            <td>{promptName(d.promptId)}</td>
                            {FUNNEL_EVENTS.map(([event]) => (
                              <td class="num" key={event}>
                                {count(d[event])}
                              </td>
                            ))}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </details>
              ) : null}
            </>
          ) : funnel.loading ? (
            <Loading what="Loading the opt-in funnel" />
          ) : null}
        </>
      )}
    </div>
  );
}
