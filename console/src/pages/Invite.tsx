// An invite or password-reset link (`#/invite/<token>`): POST /console/api/invites/accept. A new
// user (or a reset) sets a password of 10 to 200 characters; an existing user invited to one more
// site gives their current password, or none when already logged in in this browser. The answer
// is a session, as after logging in.
import { useState } from 'preact/hooks';
import { ErrorBox, TextField } from '../components/ui';
import { api } from '../lib/api';
import { useTitle } from '../lib/hooks';
import type { Session } from '../lib/types';

export function InvitePage({ token, onDone }: { token: string; onDone: (s: Session) => void }) {
  useTitle('Accept your invitation');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const mismatch = repeat !== '' && password !== repeat;
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>Accept your invitation</h1>
      <p>This link makes your account, resets your password, or adds a site to the account you have.</p>
      <ul class="small">
        <li>New account or password reset: choose a password of 10 to 200 characters, and repeat it.</li>
        <li>Existing account: enter your current password, or nothing if you are logged in in this browser.</li>
      </ul>
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
