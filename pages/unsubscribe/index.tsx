// `/unsubscribe/?token=[&preferences=]`: the footer link of every email. Opening it unsubscribes
// (that is what the visitor clicked), then offers Undo; the token's lists are shown with their new
// status. "Manage preferences" appears only when the link carries the preferences token too.
import { ArrowRight, CircleAlert, LoaderCircle, Settings2, Undo2 } from 'lucide-react';
import { useState } from 'react';
import SiteLayout from '../../components/SiteLayout';
import StatusPanel from '../../components/public/StatusPanel';
import styles from '../../components/public/Public.module.css';
import { joinNames } from '../../lib/confirm';
import type { FunctionFailure } from '../../lib/functions';
import { activeLists, preferencesPath } from '../../lib/unsubscribe';
import { useSearchParam } from '../../lib/use-search-params';
import { useUnsubscribe } from '../../lib/use-unsubscribe';
import RetryButton from '../../components/public/RetryButton';
import TestEmailNotice from '../../components/public/TestEmailNotice';
import { identityStaticProps } from '../../lib/build/public-props';

export default function UnsubscribePage() {
  const token = useSearchParam('token');
  const preferencesUrl = preferencesPath(useSearchParam('preferences').value);
  const test = useSearchParam('test').value === '1';
  // A test email's link changes nothing: no unsubscribe runs for it.
  const { data, error, change } = useUnsubscribe(test ? null : token.value);
  const [busy, setBusy] = useState<'unsubscribe' | 'resubscribe' | null>(null);
  const [failure, setFailure] = useState<FunctionFailure | null>(null);

  async function run(action: 'unsubscribe' | 'resubscribe') {
    setBusy(action);
    setFailure(null);
    const outcome = await change(action);
    setBusy(null);
    if (!outcome.ok) setFailure(outcome);
  }

  let content;
  if (test && token.value) {
    content = <TestEmailNotice page="unsubscribe" token={token.value} />;
  } else if (token.ready && !token.value) {
    content = (
      <StatusPanel tone="error" title="This link is incomplete" actions={<HomeLink />}>
        <p>The unsubscribe link has no token. Open the link from the email again.</p>
      </StatusPanel>
    );
  } else if (error) {
    content =
      error.code === 'token_invalid' ? (
        <StatusPanel tone="error" title="This link is not valid" actions={<HomeLink />}>
          <p>
            Unsubscribe links do not expire, so this one was probably cut short: open the whole link
            from the email. If you deleted your data, there is nothing left to unsubscribe.
          </p>
        </StatusPanel>
      ) : (
        <StatusPanel
          tone="error"
          title="We could not unsubscribe you"
          actions={<RetryButton onRetry={() => window.location.reload()} />}
        >
          <p>{error.message}</p>
        </StatusPanel>
      );
  } else if (!data) {
    content = <StatusPanel tone="loading" title="Unsubscribing…" />;
  } else {
    const active = activeLists(data);
    const names = joinNames(data.lists.map((list) => list.name));
    const subscribed = active.length > 0;
    const action = subscribed ? 'unsubscribe' : 'resubscribe';
    content = (
      <StatusPanel
        tone={subscribed ? 'success' : 'info'}
        title={subscribed ? 'You are subscribed again' : 'You are unsubscribed'}
        actions={
          <>
            <button
              type="button"
              className={subscribed ? styles.secondaryButton : styles.button}
              onClick={() => void run(action)}
              disabled={busy !== null}
              aria-busy={busy !== null}
              aria-describedby={failure ? 'unsubscribe-error' : undefined}
            >
              {busy ? (
                <LoaderCircle className={styles.spinner} aria-hidden="true" />
              ) : subscribed ? null : (
                <Undo2 aria-hidden="true" />
              )}
              {subscribed ? 'Unsubscribe' : 'Undo'}
            </button>
            {preferencesUrl ? (
              <a href={preferencesUrl} className={styles.secondaryButton}>
                <Settings2 aria-hidden="true" />
                Manage preferences
              </a>
            ) : (
              <HomeLink label="Go to the home page" secondary />
            )}
          </>
        }
      >
        <p>
          {subscribed ? (
            <>
              <strong>{data.email}</strong> gets{' '}
              <strong>{joinNames(active.map((l) => l.name))}</strong> again.
            </>
          ) : names ? (
            <>
              <strong>{data.email}</strong> will no longer get <strong>{names}</strong>.
            </>
          ) : (
            <>
              <strong>{data.email}</strong> is not on any list.
            </>
          )}
        </p>
        {!subscribed && <p>Clicked by mistake? Undo brings your subscription back at once.</p>}
        {!preferencesUrl && (
          <p>
            To choose which lists you get, or to download or delete your data, use the{' '}
            <em>Manage preferences</em> link at the bottom of any of our emails.
          </p>
        )}
        {failure && (
          <p id="unsubscribe-error" className={styles.fieldError} role="alert">
            <CircleAlert aria-hidden="true" />
            {failure.message}
          </p>
        )}
      </StatusPanel>
    );
  }

  return <SiteLayout title="Unsubscribe">{content}</SiteLayout>;
}

function HomeLink({ label = 'Go to the signup form', secondary = false }) {
  return (
    <a href="/" className={secondary ? styles.secondaryButton : styles.button}>
      {label}
      {!secondary && <ArrowRight aria-hidden="true" />}
    </a>
  );
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
