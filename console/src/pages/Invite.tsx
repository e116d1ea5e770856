// An invite or password-reset link (`#/invite/<token>`): first what the link is (POST
// /console/api/invites/lookup: an invite's site and inviter, or a reset), then POST
// /console/api/invites/accept. A new user (or a reset) sets a password of 10 to 200 characters; an
// existing user invited to one more site gives their current password, or none when already
// logged in in this browser. The answer is a session, as after logging in.
import { useState } from 'preact/hooks';
import { ErrorBox, Loading, TextField } from '../components/ui';
import { api } from '../lib/api';
import { useLoad, useTitle } from '../lib/hooks';
import type { InvitePreview, Session } from '../lib/types';

export function InvitePage({ token, onDone }: { token: string; onDone: (s: Session) => void }) {
  const preview = useLoad<InvitePreview>(() => api.lookupInvite(token), [token]);
  const reset = preview.data?.kind === 'reset';
  useTitle(reset ? 'Set a new password' : 'Accept your invitation');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const mismatch = repeat !== '' && password !== repeat;
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>{reset ? 'Set a new password' : 'Accept your invitation'}</h1>
      {preview.loading ? <Loading what="Reading the link" /> : null}
      {/* An unusable link is said at once, in the API's words; the form stays (its answer says the same). */}
      <ErrorBox error={preview.error} />
      {preview.data?.kind === 'invite' ? (
        <p class="invite-from" data-testid="invite-from">
          {preview.data.invitedBy ? (
            <>
              <strong>{preview.data.invitedBy}</strong> invited you to <strong>{preview.data.site.name}</strong>.
            </>
          ) : (
            <>
              You are invited to <strong>{preview.data.site.name}</strong>.
            </>
          )}
        </p>
      ) : null}
      {reset ? (
        <p>Choose a new password of 10 to 200 characters, and repeat it. Every session of your account ends.</p>
      ) : (
        <>
          <p>This link makes your account, or adds the site to the account you have.</p>
          <ul class="small">
            <li>New account: choose a password of 10 to 200 characters, and repeat it.</li>
            <li>Existing account: enter your current password, or nothing if you are logged in in this browser.</li>
          </ul>
        </>
      )}
      <form
        class="card"
        onSubmit={async (e) => {
          e.preventDefault();
          if (mismatch) return;
          setBusy(true);
          setError(undefined);
          try {
            onDone(await api.acceptInvite(token, password || undefined));
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField label="Password" type="password" autoComplete="new-password" value={password} onValue={setPassword} />
        <TextField
          label="Repeat a new password"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onValue={setRepeat}
          errors={mismatch ? ['The two passwords differ'] : undefined}
        />
        <ErrorBox error={error} />
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={busy || mismatch}>
            {busy ? 'Continuing…' : 'Continue'}
          </button>
        </div>
      </form>
    </section>
  );
}
