// A site's audit log (owners; docs/console.md, "Audit log"): who did what and when, by console
// user or API key, newest first with "Load more", the CSV download, and how long entries are kept.
import { useState } from 'preact/hooks';
import { CsvExport } from '../components/CsvExport';
import { ErrorBox, Loading, Notice, TextField } from '../components/ui';
import { api } from '../lib/api';
import { actionText, outcomeText } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { useZone } from '../lib/session';
import { showDate } from '../lib/time';
import type { AuditEntry, SiteDetail } from '../lib/types';

const MIN_DAYS = 7;
const MAX_DAYS = 3650;

function Actor({ actor }: { actor: AuditEntry['actor'] }) {
  if (actor.kind === 'user') return <>{actor.id}</>;
  return (
    <>
      API key {actor.label ? `“${actor.label}” ` : ''}
      <code>{actor.prefix ? `${actor.prefix}…` : actor.id}</code>
    </>
  );
}

export function AuditLogPage({ site }: { site: SiteDetail }) {
  useTitle(`Audit log · ${site.name}`);
  if (site.role !== 'owner') {
    return (
      <section>
        <h1 tabIndex={-1}>Audit log</h1>
        <p class="muted">The audit log is shown to the site's owners.</p>
      </section>
    );
  }
  return (
    <section>
      <h1 tabIndex={-1}>Audit log</h1>
      <p>
        Every change made to this site, by a member in this console or by an API key: sign-ins, keys, members, campaigns, topics, webhooks, settings, imports and
        exports, refused attempts included. Entries cannot be changed or deleted; they are removed only once older than the retention below.
      </p>
      <EntriesCard site={site} />
      <RetentionCard site={site} />
    </section>
  );
}

function EntriesCard({ site }: { site: SiteDetail }) {
  const { zone } = useZone();
  const first = useLoad(() => api.auditLog(site.id, null), [site.id]);
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<number | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const entries = [...(first.data?.items ?? []), ...more];
  const nextBefore = next === undefined ? first.data?.nextBefore ?? null : next;

  const loadMore = async () => {
    if (nextBefore === null) return;
    setBusy(true);
    setError(undefined);
    try {
      const page = await api.auditLog(site.id, nextBefore);
      setMore((m) => [...m, ...page.items]);
      setNext(page.nextBefore);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="card">
      <h2>Entries</h2>
      <CsvExport label="Export as CSV" noun="entries" filename="audit-log.csv" open={() => api.exportAuditLog(site.id)} />
      {first.error ? <ErrorBox error={first.error} /> : null}
      {first.loading && !first.data ? <Loading what="Loading the audit log" /> : null}
      {first.data && entries.length === 0 ? <p class="muted">Nothing has been recorded yet.</p> : null}
      {entries.length > 0 ? (
        <div class="table-scroll" role="region" aria-label="Audit log entries" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">On</th>
                <th scope="col">Outcome</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{showDate(e.at, zone)}</td>
                  <td class="wrap">
                    <Actor actor={e.actor} />
                  </td>
                  <td>{actionText(e.action)}</td>
                  <td class="wrap">{e.target ? <code>{e.target}</code> : <span class="muted">—</span>}</td>
                  <td>{outcomeText(e.status)}</td>
                  <td>
                    <span title={`Request ${e.requestId}`}>{e.clientAddress || '—'}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ErrorBox error={error} />
      {nextBefore !== null && entries.length > 0 ? (
        <button type="button" class="btn" onClick={loadMore} disabled={busy}>
          {busy ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </div>
  );
}

function RetentionCard({ site }: { site: SiteDetail }) {
  const settings = useLoad(() => api.auditSettings(site.id), [site.id]);
  const [days, setDays] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState(false);
  const value = days ?? (settings.data ? String(settings.data.retentionDays) : '');

  return (
    <div class="card">
      <h2>Retention</h2>
      {settings.error ? <ErrorBox error={settings.error} /> : null}
      {settings.loading && !settings.data ? <Loading what="Loading the retention" /> : null}
      {settings.data ? (
        <form
          class="inline-form"
          onSubmit={async (e) => {
            e.preventDefault();
            setBusy(true);
            setError(undefined);
            setSaved(false);
            try {
              // The API judges the number and says why it refuses one.
              const typed = value.trim();
              const answer = await api.setAuditSettings(site.id, /^\d+$/.test(typed) ? Number(typed) : typed);
              settings.setData(answer);
              setDays(null);
              setSaved(true);
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          <TextField
            label="Keep entries for (days)"
            hint={`From ${MIN_DAYS} to ${MAX_DAYS} days. Older entries are removed for good.`}
            type="number"
            inputMode="numeric"
            value={value}
            onValue={(v) => {
              setDays(v);
              setSaved(false);
            }}
          />
          <button type="submit" class="btn btn-primary" disabled={busy}>
            Save
          </button>
        </form>
      ) : null}
      <ErrorBox error={error} />
      {saved ? <Notice>Saved: entries are kept {settings.data?.retentionDays} days.</Notice> : null}
    </div>
  );
}
