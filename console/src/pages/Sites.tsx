// The sites the user belongs to (from the session), each with the user's role there.
import { canChange, ROLE_TEXT } from '../lib/format';
import { href, sitePath } from '../lib/router';
import { useTitle } from '../lib/hooks';
import { useZone } from '../lib/session';
import { knownZones } from '../lib/time';
import type { Session } from '../lib/types';

export function SitesPage({ session }: { session: Session }) {
  useTitle('Your sites');
  const { zone, setZone } = useZone();
  return (
    <section>
      <h1 tabIndex={-1}>Your sites</h1>
      {session.sites.length === 0 ? (
        <p>You are not a member of any site yet. A site's owner (or an operator) adds you with an invite link.</p>
      ) : (
        <ul class="site-list">
          {session.sites.map((s) => (
            <li key={s.id} class="card site-card">
              <h2>
                <a href={href(sitePath(s.id, '/campaigns'))}>{s.name}</a>
              </h2>
              <p class="muted">
                You are {s.role === 'owner' ? 'an owner' : s.role === 'editor' ? 'an editor' : 'a viewer'}: {ROLE_TEXT[s.role]?.does ?? ''}.
              </p>
              <p class="site-links">
                {canChange(s.role) ? <a href={href(sitePath(s.id, '/campaigns/new'))}>New campaign</a> : null}
                <a href={href(sitePath(s.id, '/audience'))}>Audience</a>
                <a href={href(sitePath(s.id, '/settings'))}>Settings</a>
              </p>
            </li>
          ))}
        </ul>
      )}
      <div class="card">
        <h2>Your time zone</h2>
        <div class="field">
          <label for="zone-pref">Times are shown and entered in</label>
          <select id="zone-pref" value={zone} onChange={(e) => setZone((e.currentTarget as HTMLSelectElement).value)}>
            {knownZones().map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
          <p class="hint">Kept in this browser. The API stores every date in UTC.</p>
        </div>
      </div>
    </section>
  );
}
