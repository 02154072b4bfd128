// Signup form of the home and embed pages (SPEC §2): email with a Mail icon, optional name, list
// checkboxes when there is a choice, a hidden honeypot, Subscribe button. Every outcome is the real
// one from the `subscribe` function; what the visitor typed is kept.
import { ArrowRight, CircleAlert, CircleCheck, LoaderCircle, Mail } from './public/icons';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { initialSelection, needsConfirmation, type PublicList } from '../lib/public-lists';
import type { SubscribeOutcome } from '../lib/subscribe';
import { SIGNUP_HINTS, SIGNUP_SUCCESS } from '../lib/subscribe-messages';
import { useSubscribe } from '../lib/use-subscribe';
import styles from './SignupForm.module.css';

type Failure = Extract<SubscribeOutcome, { ok: false }>;
type Success = Extract<SubscribeOutcome, { ok: true }>;

export interface SignupFormProps {
  /** Public lists, oldest first; undefined while loading (the function then picks the main list). */
  lists?: PublicList[];
  /** A list to pre-check (`?list=` of a referral link). */
  initialList?: string | null;
  /** Referral code (`?ref=`) sent with the signup. */
  referral?: string | null;
  /** Subscribe to this list only and show no checkboxes (the embed page). */
  onlyList?: string;
  onSubscribed?: (status: Success['status']) => void;
  /** The submit button's text (the embed's `?button=`). */
  buttonLabel?: string;
}

export default function SignupForm({
  lists,
  initialList,
  referral,
  onlyList,
  onSubscribed,
  buttonLabel = 'Subscribe',
}: SignupFormProps) {
  const id = useId();
  const ids = {
    email: `${id}-email`,
    emailError: `${id}-email-error`,
    name: `${id}-name`,
    nameError: `${id}-name-error`,
    lists: `${id}-lists`,
    listsError: `${id}-lists-error`,
    website: `${id}-website`,
    hint: `${id}-hint`,
  };
  const { subscribe, pending, preload } = useSubscribe();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [website, setWebsite] = useState('');
  // null until the visitor touches a box: until then the defaults follow the loaded lists.
  const [picked, setPicked] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [success, setSuccess] = useState<Success | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const listsRef = useRef<HTMLFieldSetElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (success) successRef.current?.focus();
  }, [success]);

  const choice = !onlyList && lists && lists.length > 1 ? lists : null;
  const selection = picked ?? (lists ? initialSelection(lists, initialList) : []);
  const chosen = onlyList ? [onlyList] : lists?.length ? selection : undefined;
  const confirmFirst = !lists || needsConfirmation(lists, chosen ?? selection);

  function toggle(slug: string, on: boolean) {
    const next = on ? [...selection, slug] : selection.filter((s) => s !== slug);
    setPicked(lists ? lists.map((l) => l.slug).filter((s) => next.includes(s)) : next);
    if (failure?.field === 'lists') setFailure(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setFailure(null);
    const outcome = await subscribe({
      email,
      name,
      lists: chosen,
      ref: referral ?? undefined,
      website,
    });
    if (outcome.ok) {
      setSuccess(outcome);
      onSubscribed?.(outcome.status);
      return;
    }
    setFailure(outcome);
    if (outcome.field === 'email') emailRef.current?.focus();
    if (outcome.field === 'name') nameRef.current?.focus();
    // Without list checkboxes (the error is then on the form), focus stays on the button.
    if (outcome.field === 'lists') listsRef.current?.querySelector('input')?.focus();
  }

  if (success) {
    return <SignupSuccess status={success.status} email={email} headingRef={successRef} />;
  }

  // A message goes next to its field's control; a field with no control on this form (the list
  // of the embed page, or of a site with one or no public list) has its message on the form.
  const shown = { email: true, name: true, lists: choice !== null };
  const atField = failure?.field && shown[failure.field] ? failure.field : null;
  const errorAt = (field: Failure['field']) =>
    failure && atField === field ? failure.message : null;
  const emailError = errorAt('email');
  const nameError = errorAt('name');
  const listsError = errorAt('lists');
  const formError = errorAt(null);

  return (
    <form
      className={styles.form}
      onSubmit={onSubmit}
      onFocus={preload}
      noValidate
      aria-describedby={ids.hint}
    >
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
        {emailError && <FieldError id={ids.emailError}>{emailError}</FieldError>}
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
        {nameError && <FieldError id={ids.nameError}>{nameError}</FieldError>}
      </div>

      {choice && (
        <fieldset
          ref={listsRef}
          className={styles.lists}
          aria-describedby={listsError ? ids.listsError : undefined}
        >
          <legend className={styles.label}>Lists</legend>
          {choice.map((list) => {
            const boxId = `${ids.lists}-${list.slug}`;
            return (
              <div key={list.slug} className={styles.listOption}>
                <input
                  id={boxId}
                  type="checkbox"
                  className={styles.checkbox}
                  checked={selection.includes(list.slug)}
                  disabled={pending}
                  onChange={(e) => toggle(list.slug, e.target.checked)}
                  aria-describedby={list.description ? `${boxId}-desc` : undefined}
                />
                <label htmlFor={boxId} className={styles.listText}>
                  <span className={styles.listName}>
                    {list.name}
                    {list.waitlist && <span className={styles.badge}>Waitlist</span>}
                  </span>
                  {list.description && (
                    <span id={`${boxId}-desc`} className={styles.listDescription}>
                      {list.description}
                    </span>
                  )}
                </label>
              </div>
            );
          })}
          {listsError && <FieldError id={ids.listsError}>{listsError}</FieldError>}
        </fieldset>
      )}

      {/* Honeypot: off-screen and out of the tab order; people never fill it in, bots do. */}
      <div className={styles.honeypot} aria-hidden="true">
        <label htmlFor={ids.website}>Website</label>
        <input
          id={ids.website}
          type="text"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={website}
          onChange={(e) => setWebsite(e.target.value)}
        />
      </div>

      {formError && <FormAlert>{formError}</FormAlert>}

      <button type="submit" className={styles.button} disabled={pending} aria-busy={pending}>
        <span>{buttonLabel}</span>
        {pending ? <Spinner /> : <Arrow />}
      </button>

      <p id={ids.hint} className={styles.hint}>
        {confirmFirst ? SIGNUP_HINTS.confirm : SIGNUP_HINTS.single}
      </p>
    </form>
  );
}

// The form's pieces on their own, also rendered by the embed page into its templates
// (pages/embed/index.tsx), which its script (components/embed/client.ts) clones: one markup.

export function SignupSuccess({
  status,
  email,
  headingRef,
}: {
  status: Success['status'];
  email: string;
  headingRef?: RefObject<HTMLHeadingElement | null>;
}) {
  const text = SIGNUP_SUCCESS[status];
  return (
    <div className={styles.success}>
      <CircleCheck className={styles.successIcon} aria-hidden="true" />
      <h3 ref={headingRef} tabIndex={-1} className={styles.successTitle}>
        {text.title}
      </h3>
      <p className={styles.successText}>
        {text.lead}
        <strong>{email.trim().toLowerCase()}</strong>.
      </p>
      {text.hint && <p className={styles.hint}>{text.hint}</p>}
    </div>
  );
}

export function FieldError({ id, children }: { id?: string; children?: ReactNode }) {
  return (
    <p id={id} className={styles.fieldError} role="alert">
      <CircleAlert aria-hidden="true" />
      {children}
    </p>
  );
}

export function FormAlert({ children }: { children?: ReactNode }) {
  return (
    <div className={styles.alert} role="alert">
      <CircleAlert className={styles.alertIcon} aria-hidden="true" />
      <p>{children}</p>
    </div>
  );
}

export function Spinner() {
  return <LoaderCircle className={styles.spinner} aria-hidden="true" />;
}

export function Arrow() {
  return <ArrowRight className={styles.arrow} aria-hidden="true" />;
}
