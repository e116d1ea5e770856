// POST /console/api/login. Wrong credentials and throttling answer with the API's own message
// (401 `Wrong email or password`, 429 `Too many login attempts; try again later` or `Too many
// logins at once; try again in a few seconds`, with the wait).
import { useState } from 'preact/hooks';
import { ErrorBox, Notice, TextField } from '../components/ui';
import { api } from '../lib/api';
import { useTitle } from '../lib/hooks';
import type { Session } from '../lib/types';

export function LoginPage({ next, notice, onDone }: { next?: string; notice: string | null; onDone: (s: Session, next?: string) => void }) {
  useTitle('Log in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>Log in</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <form
        class="card"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            onDone(await api.login(email.trim(), password), next);
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField label="Email" type="email" autoComplete="username" value={email} onValue={setEmail} />
        <TextField label="Password" type="password" autoComplete="current-password" value={password} onValue={setPassword} />
        <ErrorBox error={error} />
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={busy}>
            {busy ? 'Logging in…' : 'Log in'}
          </button>
        </div>
      </form>
      <p class="muted small">
        No account yet? Accounts are made by invitation: ask your platform operator for an invite link. A forgotten password is reset the same way.
      </p>
    </section>
  );
}
