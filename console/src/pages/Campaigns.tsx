// The campaigns, with the list API's filters (status, a period on createdAt or scheduleDate, in
// the owner's time zone and sent as UTC) and its cursor paging. The filters live in the address
// (`#/sites/<id>/campaigns?status=sent&field=createdAt&from=…`), so Back and bookmarks keep them.
import { useState } from 'preact/hooks';
import { ErrorBox, Loading, ViewerNote } from '../components/ui';
import { api } from '../lib/api';
import { campaignState, canChange, count, percent, sendingProgress, STATE_TEXT } from '../lib/format';
import { useInterval, useLoad, useTitle } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { offsetLabel, offsetMinutes, showDate, wallToApiDate } from '../lib/time';
import type { CampaignPage, ListCampaignsRequest, ListStatus, SiteDetail } from '../lib/types';

const STATUSES: { value: ListStatus; label: string }[] = [
  { value: 'draft', label: 'Draft' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
];

/** Refresh period while a listed campaign sends. */
const LIVE_MS = 5000;

interface Filters {
  status: ListStatus[];
  field: 'createdAt' | 'scheduleDate';
  from: string;
  to: string;
  limit: number;
}

function filtersOf(query: URLSearchParams): Filters {
  const status = (query.get('status') ?? '').split(',').filter((s): s is ListStatus => STATUSES.some((x) => x.value === s));
  const limit = Number(query.get('limit'));
  return {
    status,
    field: query.get('field') === 'scheduleDate' ? 'scheduleDate' : 'createdAt',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    limit: [10, 20, 50].includes(limit) ? limit : 20,
  };
}

function queryOf(f: Filters): string {
  const q = new URLSearchParams();
  if (f.status.length) q.set('status', f.status.join(','));
  if (f.field !== 'createdAt') q.set('field', f.field);
  if (f.from) q.set('from', f.from);
  if (f.to) q.set('to', f.to);
  if (f.limit !== 20) q.set('limit', String(f.limit));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function CampaignsPage({ site, query }: { site: SiteDetail; query: URLSearchParams }) {
  useTitle(`Campaigns · ${site.name}`);
  const { zone } = useZone();
  const applied = filtersOf(query);
  const key = queryOf(applied);
  // Cursor paging: the cursors of the pages before, to go back.
  const [cursors, setCursors] = useState<{ key: string; stack: (string | undefined)[] }>({ key, stack: [undefined] });
  const stack = cursors.key === key ? cursors.stack : [undefined];
  const cursor = stack[stack.length - 1];
  const body: ListCampaignsRequest = {
    limit: applied.limit,
    dateField: applied.field,
    ...(applied.status.length ? { status: applied.status } : {}),
    ...(applied.from ? { startDate: wallToApiDate(applied.from, zone) ?? applied.from } : {}),
    ...(applied.to ? { endDate: wallToApiDate(applied.to, zone) ?? applied.to } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const page = useLoad<CampaignPage>(() => api.listCampaigns(site.id, body), [site.id, key, cursor, zone]);
  // While a campaign of the page sends, the page follows its progress.
  const sending = page.data?.items.some((c) => campaignState(c) === 'sending') ?? false;
  useInterval(() => void page.reload(true), LIVE_MS, sending);
  const [draft, setDraft] = useState<Filters>(applied);
  const [draftKey, setDraftKey] = useState(key);
  if (draftKey !== key) {
    setDraft(applied);
    setDraftKey(key);
  }

  return (
    <section>
      <div class="page-head">
        <h1 tabIndex={-1}>Campaigns</h1>
        {canChange(site.role) ? (
          <a class="btn btn-primary" href={href(sitePath(site.id, '/campaigns/new'))}>
            New campaign
          </a>
        ) : null}
      </div>
      {canChange(site.role) ? null : <ViewerNote />}
      <form
        class="card filters"
        aria-label="Filter campaigns"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(sitePath(site.id, `/campaigns${queryOf(draft)}`));
        }}
      >
        <fieldset class="checks">
          <legend>Status</legend>
          {STATUSES.map((s) => (
            <label key={s.value} class="check">
              <input
                type="checkbox"
                name="status"
                value={s.value}
                checked={draft.status.includes(s.value)}
                onChange={(e) => {
                  const on = (e.currentTarget as HTMLInputElement).checked;
                  setDraft({ ...draft, status: on ? [...draft.status, s.value] : draft.status.filter((x) => x !== s.value) });
                }}
              />
              {s.label}
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="f-field">Period by</label>
          <select id="f-field" value={draft.field} onChange={(e) => setDraft({ ...draft, field: (e.currentTarget as HTMLSelectElement).value as Filters['field'] })}>
            <option value="createdAt">Creation date</option>
            <option value="scheduleDate">Send date</option>
          </select>
        </div>
        <div class="field">
          <label for="f-from">From</label>
          <input id="f-from" type="datetime-local" value={draft.from} onInput={(e) => setDraft({ ...draft, from: (e.currentTarget as HTMLInputElement).value })} />
        </div>
        <div class="field">
          <label for="f-to">To</label>
          <input id="f-to" type="datetime-local" value={draft.to} onInput={(e) => setDraft({ ...draft, to: (e.currentTarget as HTMLInputElement).value })} />
        </div>
        <div class="field">
          <label for="f-limit">Per page</label>
          <select id="f-limit" value={String(draft.limit)} onChange={(e) => setDraft({ ...draft, limit: Number((e.currentTarget as HTMLSelectElement).value) })}>
            <option value="10">10</option>
            <option value="20">20</option>
            <option value="50">50</option>
          </select>
        </div>
        <div class="actions">
          <button type="submit" class="btn btn-primary">
            Apply filters
          </button>
          {key ? (
            <a class="btn" href={href(sitePath(site.id, '/campaigns'))}>
              Clear
            </a>
          ) : null}
        </div>
        <p class="muted small filters-zone">
          Dates in {zone} ({offsetLabel(offsetMinutes(zone, Date.now()))}).
        </p>
      </form>
      <ErrorBox error={page.error} />
      {page.loading && !page.data ? <Loading what="Loading the campaigns" /> : null}
      {page.data ? (
        page.data.items.length === 0 ? (
          <p class="card muted">{stack.length > 1 ? 'No more campaigns.' : key ? 'No campaign matches these filters.' : 'No campaigns yet. Compose the first one!'}</p>
        ) : (
          <div class="table-scroll" role="region" aria-label="Campaigns" tabIndex={0}>
            <table class="campaigns">
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Status</th>
                  <th scope="col">{applied.field === 'scheduleDate' ? 'Send date' : 'Created'}</th>
                  <th scope="col" class="num">
                    Audience
                  </th>
                  <th scope="col" class="num">
                    Impressions
                  </th>
                  <th scope="col" class="num">
                    Clicks
                  </th>
                  <th scope="col" class="num">
                    CTR
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.items.map((c) => {
                  const state = campaignState(c);
                  return (
                    <tr key={c.id}>
                      <td>
                        <a href={href(sitePath(site.id, `/campaigns/${encodeURIComponent(c.id)}`))}>{c.title}</a>
                      </td>
                      <td>
                        <span class={`badge badge-${state}`}>{STATE_TEXT[state]}</span>
                        {sendingProgress(c, zone).map((line) => (
                          <div key={line} class="muted small">
                            {line}
                          </div>
                        ))}
                      </td>
                      <td>{showDate(applied.field === 'scheduleDate' ? c.scheduleDate : c.createdAt, zone)}</td>
                      <td class="num">{count(c.totalUsers)}</td>
                      <td class="num">{count(c.analytics.impressions)}</td>
                      <td class="num">{count(c.analytics.clicks)}</td>
                      <td class="num">{percent(c.analytics.ctr)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      {page.data && (stack.length > 1 || page.data.hasMore) ? (
        <nav class="pager" aria-label="Pages">
          <button type="button" class="btn" disabled={stack.length <= 1} onClick={() => setCursors({ key, stack: [undefined] })}>
            First page
          </button>
          <button type="button" class="btn" disabled={stack.length <= 1} onClick={() => setCursors({ key, stack: stack.slice(0, -1) })}>
            Previous page
          </button>
          <span class="muted">Page {stack.length}</span>
          <button
            type="button"
            class="btn"
            disabled={!page.data.hasMore || !page.data.nextCursor}
            onClick={() => setCursors({ key, stack: [...stack, page.data!.nextCursor ?? undefined] })}
          >
            Next page
          </button>
        </nav>
      ) : null}
    </section>
  );
}
