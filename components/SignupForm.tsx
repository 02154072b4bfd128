// Signup form of the home page (SPEC §2): email with a Mail icon, optional name, Subscribe button.
// Every outcome is the real one from the `subscribe` function; what the visitor typed is kept.
import { ArrowRight, CircleAlert, CircleCheck, LoaderCircle, Mail } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SubscribeOutcome } from '../lib/subscribe';
import { useSubscribe } from '../lib/use-subscribe';
import styles from './SignupForm.module.css';

type Failure = Extract<SubscribeOutcome, { ok: false }>;
type Success = Extract<SubscribeOutcome, { ok: true }>;

export default function SignupForm() {
  const id = useId();
  const ids = {
    email: `${id}-email`,
    emailError: `${id}-email-error`,
    name: `${id}-name`,
    nameError: `${id}-name-error`,
    hint: `${id}-hint`,
  };
  const { subscribe, pending } = useSubscribe();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [success, setSuccess] = useState<Success | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (success) successRef.current?.focus();
  }, [success]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setFailure(null);
    const outcome = await subscribe({ email, name });
    if (outcome.ok) {
      setSuccess(outcome);
      return;
    }
    setFailure(outcome);
    if (outcome.field === 'email') emailRef.current?.focus();
    if (outcome.field === 'name') nameRef.current?.focus();
  }

  if (success) {
    const pendingConfirm = success.status === 'pending';
    return (
      <div className={styles.success}>
        <CircleCheck className={styles.successIcon} aria-hidden="true" />
        <h3 ref={successRef} tabIndex={-1} className={styles.successTitle}>
          {pendingConfirm ? 'Check your inbox' : 'You are subscribed'}
        </h3>
        <p className={styles.successText}>
          {pendingConfirm ? 'We sent a confirmation link to ' : 'Thanks! The next issue goes to '}
          <strong>{email.trim().toLowerCase()}</strong>.
        </p>
      </div>
    );
  }

  const emailError = failure?.field === 'email' ? failure.message : null;
  const nameError = failure?.field === 'name' ? failure.message : null;
  const formError = failure && failure.field === null ? failure.message : null;

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-describedby={ids.hint}>
      <div className={styles.field}>
        <label htmlFor={ids.email} className={styles.label}>
          Email address
        </label>
        <div className={styles.control}>
          <Mail className={styles.inputIcon} aria-hidden="true" />
          <input
            ref={emailRef}
            id={ids.email}
            className={styles.input}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="you@example.com"
            required
            readOnly={pending}
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (failure?.field === 'email') setFailure(null);
            }}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? ids.emailError : undefined}
          />
        </div>
        {emailError && (
          <p id={ids.emailError} className={styles.fieldError} role="alert">
            <CircleAlert aria-hidden="true" />
            {emailError}
          </p>
        )}
      </div>

      <div className={styles.field}>
        <label htmlFor={ids.name} className={styles.label}>
          Name <span className={styles.optional}>(optional)</span>
        </label>
        <input
          ref={nameRef}
          id={ids.name}
          className={`${styles.input} ${styles.plain}`}
          type="text"
          name="name"
          autoComplete="name"
          maxLength={100}
          placeholder="Ada Lovelace"
          readOnly={pending}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (failure?.field === 'name') setFailure(null);
          }}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? ids.nameError : undefined}
        />
        {nameError && (
          <p id={ids.nameError} className={styles.fieldError} role="alert">
            <CircleAlert aria-hidden="true" />
            {nameError}
          </p>
        )}
      </div>

      {formError && (
        <div className={styles.alert} role="alert">
          <CircleAlert className={styles.alertIcon} aria-hidden="true" />
          <p>{formError}</p>
        </div>
      )}

      <button type="submit" className={styles.button} disabled={pending} aria-busy={pending}>
        <span>Subscribe</span>
        {pending ? (
          <LoaderCircle className={styles.spinner} aria-hidden="true" />
        ) : (
          <ArrowRight className={styles.arrow} aria-hidden="true" />
        )}
      </button>

      <p id={ids.hint} className={styles.hint}>
        We will email you a link to confirm your address. Unsubscribe any time.
      </p>
    </form>
  );
}
