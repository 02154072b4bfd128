// /login/: team sign-in by emailed link or code (first) or email + password (set in Settings →
// Your password; "Forgot your password?" mails a recovery link), with a "check your inbox" state
// that takes the code.
import { KeyRound, Mail } from 'lucide-react';
import { useRouter } from 'next/router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AuthCard, authStyles as styles } from '../../components/admin/AuthCard';
import { CheckInbox } from '../../components/admin/CheckInbox';
import { Button, LoadingState, StatusMessage, TextField } from '../../components/ui';
import { checkEmail } from '../../lib/email';
import {
  safeNext,
  sendMagicLink,
  signInWithPassword,
  SignInError,
  useSession,
} from '../../lib/use-session';
import { sendPasswordReset } from '../../lib/admin/use-team-password';

/** Seconds before "Resend link" is offered again: hosted Auth refuses a second email to the same
 * address within 60 s by default (`auth.email.max_frequency`). */
const RESEND_AFTER = 60;

type Mode = 'link' | 'password';

function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

export default function LoginPage() {
  const router = useRouter();
  const session = useSession();
  const next = safeNext(router.query.next);
  const [mode, setMode] = useState<Mode>('link');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const [resetSentTo, setResetSentTo] = useState<string | null>(null);
  const [cooldown, startCooldown] = useCountdown();
  const emailRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const signedIn = session.status === 'signed-in';

  useEffect(() => {
    if (signedIn && router.isReady) void router.replace(next);
  }, [signedIn, router, next]);

  useEffect(() => {
    if (sentTo) headingRef.current?.focus();
  }, [sentTo]);

  function fail(error: unknown) {
    const message = error instanceof SignInError ? error.message : 'Signing in failed. Try again.';
    if (error instanceof SignInError && error.message === 'Enter a valid email address.') {
      setEmailError(message);
      emailRef.current?.focus();
    } else {
      setFormError(message);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setEmailError(null);
    setFormError(null);
    const checked = checkEmail(email);
    if (!checked.ok) {
      setEmailError('Enter a valid email address.');
      emailRef.current?.focus();
      return;
    }
    if (mode === 'password' && !password) {
      setFormError('Enter your password, or email yourself a sign-in link instead.');
      return;
    }
    setPending(true);
    try {
      if (mode === 'link') {
        await sendMagicLink(checked.email, next);
        setSentTo(checked.email);
        setResent(false);
        startCooldown(RESEND_AFTER);
      } else {
        await signInWithPassword(checked.email, password);
        // The session effect above navigates once onAuthStateChange reports it.
      }
    } catch (error) {
      fail(error);
    } finally {
      setPending(false);
    }
  }

  async function forgotPassword() {
    if (pending) return;
    setEmailError(null);
    setFormError(null);
    const checked = checkEmail(email);
    if (!checked.ok) {
      setEmailError('Enter your email address, then ask for the reset link.');
      emailRef.current?.focus();
      return;
    }
    setPending(true);
    try {
      await sendPasswordReset(checked.email);
      setResetSentTo(checked.email);
    } catch (error) {
      fail(error);
    } finally {
      setPending(false);
    }
  }

  async function resend() {
    if (!sentTo || pending || cooldown > 0) return;
    setFormError(null);
    setPending(true);
    try {
      await sendMagicLink(sentTo, next);
      setResent(true);
      startCooldown(RESEND_AFTER);
    } catch (error) {
      fail(error);
    } finally {
      setPending(false);
    }
  }

  if (session.status === 'loading' || signedIn) {
    return (
      <AuthCard pageTitle="Sign in">
        <LoadingState label={signedIn ? 'Signed in. Opening the dashboard…' : 'Loading…'} />
      </AuthCard>
    );
  }

  if (sentTo) {
    return (
      <AuthCard pageTitle="Check your inbox">
        <CheckInbox
          sentTo={sentTo}
          resent={resent}
          cooldown={cooldown}
          resending={pending}
          resendError={formError}
          onResend={resend}
          onDifferentAddress={() => {
            setSentTo(null);
            setFormError(null);
            setTimeout(() => emailRef.current?.focus(), 0);
          }}
          headingRef={headingRef}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard pageTitle="Sign in">
      <h1 className={styles.title}>Sign in</h1>
      <p className={styles.lead}>
        {mode === 'link'
          ? 'For the team. We email you a link and a code that sign you in, no password needed.'
          : 'For the team. Sign in with the password you set in Settings → Your password.'}
      </p>
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField
          ref={emailRef}
          label="Email address"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={emailError}
          readOnly={pending}
        />
        {mode === 'password' ? (
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            readOnly={pending}
          />
        ) : null}
        {mode === 'password' ? (
          <Button variant="ghost" size="sm" onClick={() => void forgotPassword()}>
            Forgot your password?
          </Button>
        ) : null}
        {resetSentTo && mode === 'password' ? (
          <StatusMessage tone="success">
            If {resetSentTo} is on the team, we emailed a link. Open it in this browser: it signs
            you in and opens Settings, where you set a new password.
          </StatusMessage>
        ) : null}
        {formError ? <StatusMessage tone="error">{formError}</StatusMessage> : null}
        <Button
          type="submit"
          variant="primary"
          className={styles.full}
          loading={pending}
          icon={mode === 'link' ? <Mail /> : <KeyRound />}
        >
          {mode === 'link' ? 'Email me a sign-in link' : 'Sign in'}
        </Button>
      </form>
      <p className={styles.divider}>or</p>
      <Button
        variant="secondary"
        className={styles.full}
        onClick={() => {
          setMode(mode === 'link' ? 'password' : 'link');
          setFormError(null);
        }}
      >
        {mode === 'link' ? 'Use a password instead' : 'Email me a link instead'}
      </Button>
    </AuthCard>
  );
}
