// The login page's "Check your inbox" state: the emailed link (this browser only, as sign-in uses
// PKCE) or the 6-digit code from the same email, typed here, which works wherever it was read.
import { LogIn, MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { SignInError, verifyEmailCode } from '../../lib/use-session';
import { Button, StatusMessage, TextField } from '../ui';
import { authStyles as styles } from './AuthCard';

export interface CheckInboxProps {
  sentTo: string;
  /** A link (and code) was sent again. */
  resent: boolean;
  /** Seconds before another email may be asked for. */
  cooldown: number;
  resending: boolean;
  resendError: string | null;
  onResend: () => void;
  onDifferentAddress: () => void;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}

/** Digits only: people paste "123 456" or the code with a trailing space. */
function cleanCode(raw: string): string {
  return raw.replace(/\s+/g, '');
}

export function CheckInbox(props: CheckInboxProps) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    if (verifying) return;
    const digits = cleanCode(code);
    if (!/^\d{6}$/.test(digits)) {
      setCodeError('Enter the 6-digit code from the email.');
      codeRef.current?.focus();
      return;
    }
    setCodeError(null);
    setVerifying(true);
    try {
      await verifyEmailCode(props.sentTo, digits);
      // The login page's session effect moves on once Auth reports the session.
    } catch (error) {
      setCodeError(error instanceof SignInError ? error.message : 'Signing in failed. Try again.');
      codeRef.current?.focus();
      setVerifying(false);
    }
  }

  return (
    <>
      <div className={styles.center}>
        <span className={styles.iconOk} aria-hidden="true">
          <MailCheck />
        </span>
        <h1 className={styles.title} ref={props.headingRef} tabIndex={-1}>
          Check your inbox
        </h1>
        <p className={styles.note}>
          We sent a sign-in link and a 6-digit code to <strong>{props.sentTo}</strong>. Open the
          link in this browser, or enter the code here if you read the email on another device. Both
          work once and expire in an hour.
        </p>
      </div>
      <form className={styles.form} onSubmit={submitCode} noValidate>
        <TextField
          ref={codeRef}
          label="6-digit code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={12}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={codeError}
          readOnly={verifying}
        />
        <Button
          type="submit"
          variant="primary"
          className={styles.full}
          loading={verifying}
          icon={<LogIn />}
        >
          Sign in with the code
        </Button>
      </form>
      {props.resent ? (
        <StatusMessage tone="success">We sent a new link and code.</StatusMessage>
      ) : null}
      {props.resendError ? <StatusMessage tone="error">{props.resendError}</StatusMessage> : null}
      <div className={styles.row}>
        <Button onClick={props.onResend} loading={props.resending} disabled={props.cooldown > 0}>
          {props.cooldown > 0 ? `Resend in ${props.cooldown} s` : 'Resend email'}
        </Button>
        <Button variant="ghost" onClick={props.onDifferentAddress}>
          Use a different address
        </Button>
      </div>
    </>
  );
}
