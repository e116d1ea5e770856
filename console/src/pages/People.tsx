// A person of the site (docs/console.md, "People"; docs/people.md): looked up by the site's own
// user id, with their subscriptions (browser, created, last engaged, active, country, topics),
// their tags, and what was sent to them — campaigns, notifications and corrections, newest first
// with the outcome, the impression and the click. Every member reads; owners also export
// everything stored about the person and delete it all (the privacy delete, confirmed).
import { useState } from 'preact/hooks';
import { ConfirmDialog, ErrorBox, Loading, Notice, TextField } from '../components/ui';
import { api } from '../lib/api';
import { saveBlob } from '../lib/export-file';
import { countryName, COUNTRY_PREFIX } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { href, navigate, sitePath } from '../lib/router';
import { useZone } from '../lib/session';
import { showDate } from '../lib/time';
import type { Person, PersonSends, SiteDetail } from '../lib/types';

const BROWSER_NAMES: Record<string, string> = { chrome: 'Chrome', edge: 'Edge', firefox: 'Firefox', safari: 'Safari', other: 'Other' };
const KIND_NAMES: Record<PersonSends['items'][number]['kind'], string> = { campaign: 'Campaign', notification: 'Notification', revision: 'Correction' };
const STATE_NAMES: Record<PersonSends['items'][number]['state'], string> = { claimed: 'Sending', sent: 'Sent', expired: 'Subscription gone', failed: 'Failed' };
/** The sends the API answers at most (the delivery service's MAX_PERSON_SENDS). */
const MAX_SENDS = 100;

const personPath = (siteId: string, externalId: string) => sitePath(siteId, `/people/${encodeURIComponent(externalId)}`);

export function PeoplePage({ site, externalId }: { site: SiteDetail; externalId?: string }) {
  useTitle(externalId === undefined ? `People · ${site.name}` : `${externalId} · People · ${site.name}`);
  const [typed, setTyped] = useState(externalId ?? '');
  return (
    <section>
      <h1 tabIndex={-1}>People</h1>
      <p>
        The people your site has identified (its own user ids, given to the site plugin's <code>identify</code>): their subscriptions, their tags and what was
        sent to them.
      </p>
      {!site.plan.permissions.includes('audience') ? (
        <p class="muted">This site's plan does not include people: they need its permission to read the audience.</p>
      ) : (
        <>
          <form
            class="inline-form card"
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              if (typed !== '') navigate(personPath(site.id, typed));
            }}
          >
            <TextField label="User id" hint="Exactly as your site gives it: Alice and alice are two people." value={typed} onValue={setTyped} id="person-id" />
            <button type="submit" class="btn btn-primary">
              Look up
            </button>
          </form>
          {externalId === undefined ? null : <PersonView key={externalId} site={site} externalId={externalId} />}
        </>
      )}
    </section>
  );
}

function PersonView({ site, externalId }: { site: SiteDetail; externalId: string }) {
  const { zone } = useZone();
  const person = useLoad(() => api.person(site.id, externalId), [site.id, externalId]);
  const [deleted, setDeleted] = useState<number | null>(null);
  if (deleted !== null) {
    return (
      <Notice>
        {externalId} was deleted with {deleted === 1 ? '1 subscription' : `${deleted} subscriptions`}, their tags and what was sent to them.
      </Notice>
    );
  }
  if (person.error) return <ErrorBox error={person.error} />;
  if (!person.data) return <Loading what={`Looking up ${externalId}`} />;
  const p = person.data;
  return (
    <>
      <div class="card">
        <h2>{p.externalId}</h2>
        <p class="muted">Known since {showDate(p.createdAt, zone)}.</p>
        {site.role === 'owner' ? <OwnerActions site={site} person={p} onDeleted={setDeleted} /> : null}
        <h3>Subscriptions</h3>
        {p.subscriptions.length === 0 ? (
          <p class="muted">No subscription is linked to this person.</p>
        ) : (
          <div class="table-scroll" role="region" aria-label="Subscriptions" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Browser</th>
                  <th scope="col">Subscribed</th>
                  <th scope="col">Last engaged</th>
                  <th scope="col">Active</th>
                  <th scope="col">Country</th>
                  <th scope="col">Topics</th>
                  <th scope="col">Id</th>
                </tr>
              </thead>
              <tbody>
                {p.subscriptions.map((s, i) => (
                  <tr key={s.id ?? i}>
                    <td>{BROWSER_NAMES[s.browser] ?? s.browser}</td>
                    <td>{showDate(s.createdAt, zone)}</td>
                    <td>{s.lastEngagedAt ? showDate(s.lastEngagedAt, zone) : <span class="muted">Never</span>}</td>
                    <td>{s.active ? 'Yes' : 'No'}</td>
                    <td>{s.country ? countryName(`${COUNTRY_PREFIX}${s.country}`) : <span class="muted">Unknown</span>}</td>
                    <td class="wrap">{s.topics.length ? s.topics.join(', ') : <span class="muted">None</span>}</td>
                    <td>{s.id ? <code>{s.id}</code> : <span class="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <h3>Tags</h3>
        {Object.keys(p.tags).length === 0 ? (
          <p class="muted">No tags.</p>
        ) : (
          <dl class="tags">
            {Object.entries(p.tags).map(([k, v]) => (
              <div key={k}>
                <dt>
                  <code>{k}</code>
                </dt>
                <dd>{String(v)}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
      <SendsCard site={site} externalId={externalId} />
    </>
  );
}

function SendsCard({ site, externalId }: { site: SiteDetail; externalId: string }) {
  const { zone } = useZone();
  const sends = useLoad(() => api.personSends(site.id, externalId), [site.id, externalId]);
  const items = sends.data?.items ?? [];
  const reported = (at: string | null) => (at ? showDate(at, zone) : <span class="muted">—</span>);
  return (
    <div class="card">
      <h2>What was sent</h2>
      <ErrorBox error={sends.error} />
      {sends.loading && !sends.data ? <Loading what="Loading what was sent" /> : null}
      {sends.data && items.length === 0 ? <p class="muted">Nothing was sent to this person's subscriptions (or it is older than the delivery log keeps).</p> : null}
      {items.length > 0 ? (
        <div class="table-scroll" role="region" aria-label="What was sent" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Title</th>
                <th scope="col">Outcome</th>
                <th scope="col">Shown</th>
                <th scope="col">Clicked</th>
                <th scope="col">Subscription</th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={`${s.runId}:${s.subscriptionId ?? ''}`}>
                  <td>{showDate(s.at, zone)}</td>
                  <td>{KIND_NAMES[s.kind] ?? s.kind}</td>
                  <td class="wrap">
                    {s.kind === 'notification' ? (
                      s.title
                    ) : (
                      <a href={href(sitePath(site.id, `/campaigns/${encodeURIComponent(s.campaignId)}`))}>{s.title || s.campaignId}</a>
                    )}
                  </td>
                  <td>{STATE_NAMES[s.state] ?? s.state}</td>
                  <td>{reported(s.impressionAt)}</td>
                  <td>{reported(s.clickAt)}</td>
                  <td>{s.subscriptionId ? <code>{s.subscriptionId}</code> : <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {sends.data?.more ? (
        <p class="muted">
          The newest {MAX_SENDS} are shown.{site.role === 'owner' ? ' The export above holds every one the delivery log keeps.' : ''}
        </p>
      ) : null}
    </div>
  );
}

function OwnerActions({ site, person, onDeleted }: { site: SiteDetail; person: Person; onDeleted: (subscriptions: number) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const exportAll = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const res = await api.exportPerson(site.id, person.externalId);
      saveBlob(new Blob([await res.text()], { type: 'application/json' }), `person-${person.externalId.replace(/[^A-Za-z0-9_-]+/g, '_')}.json`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="actions">
      <button type="button" class="btn" onClick={exportAll} disabled={busy}>
        {busy ? 'Exporting…' : 'Export everything stored'}
      </button>
      <button type="button" class="btn btn-danger" onClick={() => setConfirming(true)}>
        Delete this person
      </button>
      <ErrorBox error={error} />
      <ConfirmDialog
        open={confirming}
        title={`Delete ${person.externalId}?`}
        confirmLabel="Delete for good"
        danger
        onConfirm={async () => {
          const answer = await api.deletePerson(site.id, person.externalId);
          onDeleted(answer.subscriptions);
        }}
        onClose={() => setConfirming(false)}
      >
        <p>
          Their {person.subscriptions.length === 1 ? 'subscription' : `${person.subscriptions.length} subscriptions`} (the browsers get nothing more), their tags, and
          what was sent to them and their impressions and clicks are deleted. The campaigns' totals stay. This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
