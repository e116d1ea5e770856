// An invite or password-reset link (`#/invite/<token>`): POST /console/api/invites/accept. A new
// user (or a reset) sets a password of 10 to 200 characters; an existing user who was invited to
// another site may leave it empty. The answer is a session, as after logging in.
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
      <p>
        Choose a password to finish setting up your account (or to reset it). If you already have an account and were invited to one more site, leave
        both fields empty.
      </p>
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
        <TextField label="New password" hint="10 to 200 characters." type="password" autoComplete="new-password" value={password} onValue={setPassword} />
        <TextField
          label="Repeat the password"
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
