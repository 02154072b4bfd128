// Settings → Your password: any member sets or changes the password they may sign in with on
// /login/ (the emailed link keeps working). A forgotten password is reset from /login/, whose
// recovery link signs in and opens this card.
import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { passwordProblem, setOwnPassword } from '../../../lib/admin/use-team-password';
import { SignInError } from '../../../lib/sign-in';
import { Button, Card, StatusMessage, TextField } from '../../ui';
import styles from './Settings.module.css';

export function PasswordCard() {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const problem = passwordProblem(password, again);
    setError(problem);
    if (problem) return;
    setPending(true);
    try {
      await setOwnPassword(password);
      setSaved(true);
      setPassword('');
      setAgain('');
    } catch (err) {
      setError(err instanceof SignInError ? err.message : 'The password was not saved. Try again.');
    } finally {
      setPending(false);
    }
  };

  return (
    <Card id="password" title="Your password">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Your password">
        <p>
          Optional: with a password you can sign in on /login/ without waiting for an email. The
          emailed link keeps working. Forgot it? Use “Forgot your password?” on the sign-in page.
        </p>
        <div className={styles.invite}>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <TextField
            label="New password again"
            type="password"
            autoComplete="new-password"
            value={again}
            error={error}
            onChange={(e) => setAgain(e.target.value)}
          />
          <Button
            type="submit"
            icon={<KeyRound />}
            loading={pending}
            className={styles.inviteButton}
          >
            Set password
          </Button>
        </div>
        {saved ? (
          <StatusMessage tone="success">
            Your password is set. Sign in with it next time, or with an emailed link.
          </StatusMessage>
        ) : null}
      </form>
    </Card>
  );
}
