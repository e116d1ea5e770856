// Site settings: the plan and what it allows, the API keys (owners only: create with a label and
// see the key once, list by prefix, revoke, rotate), the VAPID public key, the two-line install
// of the site plugin, a test notification to this browser (not for viewers), the sending
// settings (components/SiteSettingsCard.tsx), the exports (components/ExportsCard.tsx) and the
// members (owners: invite by link, change a role, remove; pending invites revoked).
import { useState } from 'preact/hooks';
import { ExportsCard } from '../components/ExportsCard';
import { SiteSettingsCard } from '../components/SiteSettingsCard';
import { ConfirmDialog, CopyField, ErrorBox, Loading, Notice, TextField, ViewerNote } from '../components/ui';
import { api } from '../lib/api';
import { canChange, PERMISSION_TEXT, ROLE_TEXT } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { askPermission, pushUnsupported, sendTestNotification, subscribeThisBrowser, type TestPushState } from '../lib/push';
import { useSession, useZone } from '../lib/session';
import { showDate } from '../lib/time';
import type { ApiKey, CreatedInvite, Invite, Member, Role, SiteDetail } from '../lib/types';

const ROLES: Role[] = ['owner', 'editor', 'viewer'];

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
      {canChange(site.role) ? null : <ViewerNote />}
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
      {canChange(site.role) ? <TestNotificationCard site={site} /> : null}
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

/** The role menu of a member's row or of the invite form (what each role may do is said under the members). */
function RoleSelect({ id, value, onValue, label }: { id: string; value: Role; onValue: (r: Role) => void; label?: string }) {
  return (
    <select id={id} value={value} aria-label={label} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value as Role)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_TEXT[r].name}
        </option>
      ))}
    </select>
  );
}

/**
 * The site's members and pending invites (owners). A role is chosen in the row's menu and saved
 * with its button (a menu alone would apply a change made by a stray arrow key); removing a
 * member and revoking an invite are confirmed. The API keeps the site's last owner (409, shown).
 */
function MembersCard({ site }: { site: SiteDetail }) {
  const { zone } = useZone();
  const me = useSession()?.user.email;
  const members = useLoad<Member[]>(() => api.members(site.id), [site.id]);
  const invites = useLoad<Invite[]>(() => api.invites(site.id), [site.id]);
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [revoking, setRevoking] = useState<Invite | null>(null);

  async function saveRole(m: Member) {
    setError(undefined);
    setDone(null);
    try {
      const changed = await api.changeRole(site.id, m.id, roles[m.id]);
      setDone(`${changed.email} is now ${ROLE_TEXT[changed.role].name.toLowerCase()}.`);
      setRoles(({ [m.id]: _, ...rest }) => rest);
      await members.reload(true);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div class="card members">
      <h2>Members</h2>
      <ErrorBox error={members.error ?? error} />
      {done ? <Notice>{done}</Notice> : null}
      {members.data ? (
        <div class="table-scroll" role="region" aria-label="Members" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Member since</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((m) => {
                const chosen = roles[m.id] ?? m.role;
                return (
                  <tr key={m.id} data-member={m.email}>
                    <td>
                      {m.email} {m.email === me ? <span class="muted">(you)</span> : null}
                    </td>
                    <td>
                      <RoleSelect id={`role-${m.id}`} label={`Role of ${m.email}`} value={chosen} onValue={(r) => setRoles({ ...roles, [m.id]: r })} />
                    </td>
                    <td>{showDate(m.since, zone)}</td>
                    <td class="row-actions">
                      <button type="button" class="btn btn-small" disabled={chosen === m.role} onClick={() => void saveRole(m)} aria-label={`Save role of ${m.email}`}>
                        Save role
                      </button>
                      <button type="button" class="btn btn-small btn-danger" onClick={() => setRemoving(m)} aria-label={`Remove ${m.email}`}>
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : members.loading ? (
        <Loading what="Loading the members" />
      ) : null}
      <p class="muted small">
        Owners: {ROLE_TEXT.owner.does}. Editors: {ROLE_TEXT.editor.does}. Viewers: {ROLE_TEXT.viewer.does}. A site always keeps at least one owner.
      </p>

      <InviteForm site={site} onInvited={() => invites.reload(true)} />

      <h3>Pending invites</h3>
      <ErrorBox error={invites.error} />
      {invites.data ? (
        invites.data.length === 0 ? (
          <p class="muted">No pending invites.</p>
        ) : (
          <div class="table-scroll" role="region" aria-label="Pending invites" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invites.data.map((i) => (
                  <tr key={i.id} data-invite={i.email}>
                    <td>{i.email}</td>
                    <td>{ROLE_TEXT[i.role]?.name ?? i.role}</td>
                    <td>{i.invitedBy ?? <span class="muted">an operator</span>}</td>
                    <td>{showDate(i.expiresAt, zone)}</td>
                    <td class="row-actions">
                      <button type="button" class="btn btn-small btn-danger" onClick={() => setRevoking(i)} aria-label={`Revoke the invite of ${i.email}`}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : invites.loading ? (
        <Loading what="Loading the invites" />
      ) : null}

      <ConfirmDialog
        open={removing !== null}
        title="Remove this member?"
        confirmLabel="Remove member"
        danger
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await api.removeMember(site.id, removing.id);
          setDone(`${removing.email} is no longer a member.`);
          await members.reload(true);
        }}
      >
        <p>
          {removing?.email} loses this site at once{removing?.email === me ? ', and so do you: you will not see it again unless invited' : ''}. Their account and
          their other sites stay.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this invite?"
        confirmLabel="Revoke invite"
        danger
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await api.revokeInvite(site.id, revoking.id);
          await invites.reload(true);
        }}
      >
        <p>The link sent to {revoking?.email} stops working at once.</p>
      </ConfirmDialog>
    </div>
  );
}

/** An invite by link: the API answers the one-time link once, for the owner to copy and hand over (there is no e-mail). */
function InviteForm({ site, onInvited }: { site: SiteDetail; onInvited: () => Promise<void> }) {
  const { zone } = useZone();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  return (
    <>
      <h3>Invite someone</h3>
      <form
        class="inline-form"
        aria-label="Invite someone"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            setCreated(await api.invite(site.id, email, role));
            setEmail('');
            await onInvited();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField label="Email" type="email" autoComplete="off" value={email} onValue={setEmail} maxLength={254} />
        <div class="field">
          <label for="invite-role">Role</label>
          <RoleSelect id="invite-role" value={role} onValue={setRole} />
        </div>
        <button type="submit" class="btn btn-primary" disabled={busy}>
          Create invite link
        </button>
      </form>
      <ErrorBox error={error} />
      {created ? (
        <div class="new-key" role="region" aria-label="The new invite link">
          <Notice>
            Copy the link now and hand it to {created.invite.email}: it is shown only once, works once, and expires {showDate(created.invite.expiresAt, zone)}.
          </Notice>
          <CopyField label={`Invite link for ${created.invite.email} (${ROLE_TEXT[created.invite.role].name.toLowerCase()})`} value={created.link} />
          <button type="button" class="btn btn-small" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </div>
      ) : null}
    </>
  );
}
