// Site settings: the plan and what it allows, the API keys (owners only: create with a label and
// see the key once, list by prefix, revoke, rotate), the members (owners), the VAPID public key,
// the two-line install of the site plugin, a test notification to this browser, the sending
// settings (components/SiteSettingsCard.tsx) and the exports (components/ExportsCard.tsx).
import { useState } from 'preact/hooks';
import { ExportsCard } from '../components/ExportsCard';
import { SiteSettingsCard } from '../components/SiteSettingsCard';
import { ConfirmDialog, CopyField, ErrorBox, Loading, Notice, TextField } from '../components/ui';
import { api } from '../lib/api';
import { PERMISSION_TEXT } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { askPermission, pushUnsupported, sendTestNotification, subscribeThisBrowser, type TestPushState } from '../lib/push';
import { useZone } from '../lib/session';
import { showDate } from '../lib/time';
import type { ApiKey, Member, SiteDetail } from '../lib/types';

const ALL_PERMISSIONS = ['create', 'reports', 'delete', 'audience'];

export function SettingsPage({ site }: { site: SiteDetail }) {
  useTitle(`Settings · ${site.name}`);
  const owner = site.role === 'owner';
  return (
    <section>
      <h1 tabIndex={-1}>Settings</h1>
      <div class="card">
        <h2>Plan</h2>
        <p>
          This site is on the plan <strong>{site.plan.name}</strong>. It allows:
        </p>
        <ul class="checklist">
          {ALL_PERMISSIONS.map((p) => {
            const has = site.plan.permissions.includes(p);
            return (
              <li key={p} class={has ? 'yes' : 'no'}>
                <span class="sr-only">{has ? 'Allowed: ' : 'Not allowed: '}</span>
                <span aria-hidden="true">{has ? '✓ ' : '✗ '}</span>
                {PERMISSION_TEXT[p]}
              </li>
            );
          })}
          {site.plan.permissions
            .filter((p) => !ALL_PERMISSIONS.includes(p))
            .map((p) => (
              <li key={p} class="yes">
                <span aria-hidden="true">✓ </span>
                {p}
              </li>
            ))}
        </ul>
        <p class="muted small">The same permissions apply to the API (/v2) and to this console.</p>
      </div>
      {owner ? <KeysCard site={site} /> : <p class="muted">API keys and members are managed by the site's owners.</p>}
      <div class="card">
        <h2>Site plugin</h2>
        <p>
          Add these two lines to your site: the first to every page (before <code>&lt;/body&gt;</code>), the second as the file{' '}
          <code>/webpush-sw.js</code> at your site's root.
        </p>
        <CopyField label="Page snippet" value={site.snippet.page} multiline />
        <CopyField label="Service worker" value={site.snippet.serviceWorker} multiline />
        <CopyField label="VAPID public key" value={site.vapidPublicKey} hint="The key browsers subscribe with; the plugin passes it for you." />
        <p class="muted small">
          Public site id: <code>{site.publicId}</code>
        </p>
      </div>
      <TestNotificationCard site={site} />
      <SiteSettingsCard site={site} />
      <ExportsCard site={site} />
      {owner ? <MembersCard site={site} /> : null}
    </section>
  );
}

function KeysCard({ site }: { site: SiteDetail }) {
  const { zone } = useZone();
  const keys = useLoad<ApiKey[]>(() => api.keys(site.id), [site.id]);
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [shown, setShown] = useState<{ apiKey: string; key: ApiKey; revoked?: ApiKey } | null>(null);
  const [confirm, setConfirm] = useState<{ action: 'revoke' | 'rotate'; key: ApiKey } | null>(null);

  return (
    <div class="card">
      <h2>API keys</h2>
      <p>Your servers call the API with a key in the <code>Authorization</code> header. Keep keys on the server side only.</p>
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            const issued = await api.createKey(site.id, label.trim());
            setShown(issued);
            setLabel('');
            await keys.reload(true);
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField label="Label for a new key" hint="What the key is for, e.g. “newsroom server”." value={label} onValue={setLabel} maxLength={100} />
        <button type="submit" class="btn btn-primary" disabled={busy}>
          Create key
        </button>
      </form>
      <ErrorBox error={error} />
      {shown ? (
        <div class="new-key" role="region" aria-label="The new key">
          <Notice>
            {shown.revoked ? (
              <>
                Key <code>{shown.revoked.prefix}…</code> is revoked and replaced by a new one.{' '}
              </>
            ) : null}
            Copy the new key now: it is shown only once.
          </Notice>
          <CopyField label={`API key “${shown.key.label}”`} value={shown.apiKey} />
          <button type="button" class="btn btn-small" onClick={() => setShown(null)}>
            I have copied it
          </button>
        </div>
      ) : null}
      {keys.error ? <ErrorBox error={keys.error} /> : null}
      {keys.loading && !keys.data ? <Loading what="Loading the keys" /> : null}
      {keys.data ? (
        keys.data.length === 0 ? (
          <p class="muted">No keys yet.</p>
        ) : (
          <div class="table-scroll" role="region" aria-label="API keys" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((k) => (
                  <tr key={k.id} class={k.revokedAt ? 'revoked' : undefined}>
                    <td>{k.label || <span class="muted">(no label)</span>}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>{showDate(k.createdAt, zone)}</td>
                    <td>{k.lastUsedAt ? showDate(k.lastUsedAt, zone) : 'Never'}</td>
                    <td>{k.revokedAt ? `Revoked ${showDate(k.revokedAt, zone)}` : 'Active'}</td>
                    <td class="row-actions">
                      {k.revokedAt ? null : (
                        <>
                          <button type="button" class="btn btn-small" onClick={() => setConfirm({ action: 'rotate', key: k })} aria-label={`Rotate key ${k.label || k.prefix}`}>
                            Rotate
                          </button>
                          <button
                            type="button"
                            class="btn btn-small btn-danger"
                            onClick={() => setConfirm({ action: 'revoke', key: k })}
                            aria-label={`Revoke key ${k.label || k.prefix}`}
                          >
                            Revoke
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.action === 'rotate' ? 'Rotate this key?' : 'Revoke this key?'}
        confirmLabel={confirm?.action === 'rotate' ? 'Rotate key' : 'Revoke key'}
        danger
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          if (!confirm) return;
          if (confirm.action === 'revoke') {
            await api.revokeKey(site.id, confirm.key.id);
            setShown(null);
          } else {
            const rotated = await api.rotateKey(site.id, confirm.key.id);
            setShown(rotated);
          }
          await keys.reload(true);
        }}
      >
        <p>
          Key <code>{confirm?.key.prefix}…</code> {confirm?.key.label ? `(“${confirm.key.label}”)` : ''}{' '}
          {confirm?.action === 'rotate'
            ? 'is revoked at once and a new key is made in its place. Servers using it stop working until they have the new key.'
            : 'stops working at once. This cannot be undone.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}

/**
 * "Send a test notification to this browser": asks for permission, subscribes this browser with
 * the site's VAPID key through the console's own service worker, and has the site push one
 * notification to it (POST …/test-notification). Each state says what happened, in the API's
 * words when it refused; a browser whose push service does not answer is given up on after
 * SUBSCRIBE_TIMEOUT_MS (lib/push.ts sendTestNotification).
 */
function TestNotificationCard({ site }: { site: SiteDetail }) {
  const unsupported = pushUnsupported();
  const [state, setState] = useState<TestPushState>({ step: 'idle' });

  async function send() {
    setState({ step: 'sending' });
    setState(
      await sendTestNotification({
        askPermission,
        subscribe: () => subscribeThisBrowser(site.vapidPublicKey),
        send: (subscription) => api.testNotification(site.id, subscription),
      }),
    );
  }

  return (
    <div class="card">
      <h2>Test notification</h2>
      {unsupported ? (
        <p class="muted" data-testid="test-push-unsupported">
          {unsupported === 'insecure'
            ? 'Push notifications need a secure connection: open the console over https:// to send a test notification to this browser.'
            : 'This browser cannot receive push notifications, so it cannot get a test notification.'}
        </p>
      ) : (
        <>
          <p>
            Sends one notification with this site's keys to the browser you are using now, to see that the keys, the push service and your
            browser work together. The browser asks whether the console may show notifications; nothing is added to the site's subscribers.
          </p>
          <button type="button" class="btn btn-primary btn-wrap" onClick={send} disabled={state.step === 'sending'}>
            Send a test notification to this browser
          </button>
        </>
      )}
      <div class="test-push-status" role="status" aria-live="polite">
        {state.step === 'sending' ? <p class="muted">Sending the test notification…</p> : null}
        {state.step === 'sent' ? (
          // Inside this live region: no role of its own (a Notice is a status region itself).
          <div class="alert alert-ok">
            Sent: the notification “Test notification” should appear within a few seconds. If it does not, check that notifications are allowed for
            this browser in your system's settings.
          </div>
        ) : null}
      </div>
      {state.step === 'denied' ? (
        <ErrorBox error="Notifications are blocked for the console in this browser. Allow them in the browser's settings for this site (the icon beside the address), then try again." />
      ) : null}
      {state.step === 'dismissed' ? <ErrorBox error="Notifications were not allowed. Press the button again and choose Allow." /> : null}
      {state.step === 'failed' ? <ErrorBox error={state.message} title="The test notification was not sent" /> : null}
    </div>
  );
}

function MembersCard({ site }: { site: SiteDetail }) {
  const members = useLoad<Member[]>(() => api.members(site.id), [site.id]);
  return (
    <div class="card">
      <h2>Members</h2>
      {members.error ? <ErrorBox error={members.error} /> : null}
      {members.data ? (
        <ul class="plain">
          {members.data.map((m) => (
            <li key={m.email}>
              {m.email} <span class="badge">{m.role}</span>
            </li>
          ))}
        </ul>
      ) : members.loading ? (
        <Loading what="Loading the members" />
      ) : null}
      <p class="muted small">
        Operators invite members with <code>users invite &lt;site&gt; &lt;email&gt; --role owner|editor</code>.
      </p>
    </div>
  );
}
