// `/confirm/?token=`: completes double opt-in; on a waitlist list shows the place in line and the
// referral link to share (SPEC §2).
import { ArrowRight } from 'lucide-react';
import SiteLayout from '../../components/SiteLayout';
import StatusPanel from '../../components/public/StatusPanel';
import WaitlistStats from '../../components/public/WaitlistStats';
import { ShareNewsletter, ShareWaitlist } from '../../components/public/ShareButtons';
import styles from '../../components/public/Public.module.css';
import { joinNames } from '../../lib/confirm';
import { useConfirm } from '../../lib/use-confirm';
import { useSearchParam } from '../../lib/use-search-params';
import { waitlistPagePath } from '../../lib/waitlist';
import RetryButton from '../../components/public/RetryButton';
import { identityStaticProps } from '../../lib/build/public-props';

export default function ConfirmPage() {
  const token = useSearchParam('token');
  const { data, error } = useConfirm(token.value);

  return (
    <SiteLayout title="Confirm your subscription">
      <ConfirmState ready={token.ready} hasToken={Boolean(token.value)} data={data} error={error} />
    </SiteLayout>
  );
}

function ConfirmState({
  ready,
  hasToken,
  data,
  error,
}: {
  ready: boolean;
  hasToken: boolean;
  data: ReturnType<typeof useConfirm>['data'];
  error: ReturnType<typeof useConfirm>['error'];
}) {
  if (ready && !hasToken) {
    return (
      <StatusPanel
        tone="error"
        title="This link is incomplete"
        actions={<HomeLink label="Go to the signup form" />}
      >
        <p>
          The confirmation link has no token. Open the link from the email again, or copy the whole
          address into your browser.
        </p>
      </StatusPanel>
    );
  }
  if (error) {
    if (error.code === 'token_expired') {
      return (
        <StatusPanel
          tone="error"
          title="This link has expired"
          actions={<HomeLink label="Subscribe again" />}
        >
          <p>{error.message}</p>
          <p>Confirmation links work for 7 days. Sign up again and we will send a fresh one.</p>
        </StatusPanel>
      );
    }
    if (error.code === 'token_invalid') {
      return (
        <StatusPanel
          tone="error"
          title="This link is not valid"
          actions={<HomeLink label="Go to the signup form" />}
        >
          <p>
            Make sure you opened the whole link from the email. If the address was removed or
            blocked since, sign up again.
          </p>
        </StatusPanel>
      );
    }
    return (
      <StatusPanel
        tone="error"
        title="We could not confirm your subscription"
        actions={<RetryButton onRetry={() => window.location.reload()} />}
      >
        <p>{error.message}</p>
      </StatusPanel>
    );
  }
  if (!data) {
    return (
      <StatusPanel tone="loading" title="Confirming your subscription…">
        <p>This takes a moment.</p>
      </StatusPanel>
    );
  }
  const names = joinNames(data.lists.map((list) => list.name));
  if (data.already && !names) {
    return (
      <StatusPanel
        tone="info"
        title="This link was already used"
        actions={<HomeLink label="Go to the signup form" />}
      >
        <p>
          You confirmed with this link before, but you are no longer subscribed to the lists it
          confirmed. Sign up again to get back on.
        </p>
      </StatusPanel>
    );
  }
  return (
    <>
      <StatusPanel
        tone="success"
        title={data.already ? 'You are already confirmed' : 'You are confirmed'}
      >
        {data.already && <p>You opened this link before, so nothing changed this time.</p>}
        <p>
          {names ? (
            <>
              You are {data.already ? '' : 'now '}subscribed to <strong>{names}</strong>.
            </>
          ) : (
            'Your subscription is confirmed.'
          )}{' '}
          Watch your inbox for the next email.
        </p>
        {data.updated && <p>The name and details you entered in the form are saved.</p>}
      </StatusPanel>
      {!data.waitlist && <ShareNewsletter />}
      {data.waitlist && (
        <section className={styles.card} aria-labelledby="waitlist-heading">
          <div>
            <h2 id="waitlist-heading" className={styles.sectionTitle}>
              Your place on {data.waitlist.list.name}
            </h2>
            <p className={styles.sectionText}>Share your link to move up the line.</p>
          </div>
          <WaitlistStats standing={data.waitlist} />
          <ShareWaitlist listName={data.waitlist.list.name} url={data.waitlist.url} />
          <div className={styles.actions}>
            <a
              className={styles.secondaryButton}
              href={waitlistPagePath(data.waitlist.code, data.waitlist.list.slug)}
            >
              Follow your place live
              <ArrowRight aria-hidden="true" />
            </a>
          </div>
        </section>
      )}
    </>
  );
}

function HomeLink({ label }: { label: string }) {
  return (
    <a href="/" className={styles.button}>
      {label}
      <ArrowRight aria-hidden="true" />
    </a>
  );
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
