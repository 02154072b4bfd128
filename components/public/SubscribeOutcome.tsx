// The static pages a plain HTML signup form lands on (subscribe's 303, SPEC §7): every word is in
// the exported HTML, so they read the same with JavaScript turned off.
import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import SiteLayout from '../SiteLayout';
import StatusPanel, { type StatusTone } from './StatusPanel';
import styles from './Public.module.css';

/** Mirrors FORM_OUTCOMES in supabase/functions/subscribe/form-post.ts (one page each). */
export type SubscribeOutcomeKind =
  'check-inbox' | 'thanks' | 'invalid' | 'too-many' | 'no-list' | 'error';

const OUTCOMES: Record<
  SubscribeOutcomeKind,
  { tone: StatusTone; title: string; body: ReactNode; action: string }
> = {
  'check-inbox': {
    tone: 'success',
    title: 'Check your inbox',
    body: (
      <>
        <p>We sent you an email with a confirmation link. Open it to finish signing up.</p>
        <p>Nothing there after a few minutes? Look in your spam folder, or sign up again.</p>
      </>
    ),
    action: 'Go to the home page',
  },
  thanks: {
    tone: 'success',
    title: 'Thank you for subscribing',
    body: <p>You are on the list. Watch your inbox for the next email.</p>,
    action: 'Go to the home page',
  },
  invalid: {
    tone: 'error',
    title: 'That email address does not look right',
    body: (
      <p>
        Nothing was saved. Go back to the form, check the address (and the name, at most 100
        characters) and send it again.
      </p>
    ),
    action: 'Sign up on the home page',
  },
  'too-many': {
    tone: 'error',
    title: 'Too many attempts',
    body: (
      <p>
        Nothing was saved this time. To stop abuse, an address or a connection can only sign up a
        few times in ten minutes. Wait a few minutes and try again.
      </p>
    ),
    action: 'Go to the home page',
  },
  'no-list': {
    tone: 'error',
    title: 'This list does not exist',
    body: (
      <p>
        The form you used points to a list that does not exist or is no longer open. Nothing was
        saved. You can sign up to the lists that are open on the home page.
      </p>
    ),
    action: 'See the open lists',
  },
  error: {
    tone: 'error',
    title: 'Something went wrong',
    body: <p>Nothing was saved. Please go back and try again in a moment.</p>,
    action: 'Go to the home page',
  },
};

export default function SubscribeOutcome({ kind }: { kind: SubscribeOutcomeKind }) {
  const outcome = OUTCOMES[kind];
  return (
    <SiteLayout title={outcome.title}>
      <StatusPanel
        tone={outcome.tone}
        title={outcome.title}
        actions={
          <a href="/" className={styles.button}>
            {outcome.action}
            <ArrowRight aria-hidden="true" />
          </a>
        }
      >
        {outcome.body}
      </StatusPanel>
    </SiteLayout>
  );
}
