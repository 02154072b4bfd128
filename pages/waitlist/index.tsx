// `/waitlist/?code=`: a waitlist member's place, total and referrals with the share link; updates
// live when anyone on the same list confirms (broadcast `waitlist:<slug>`, then a re-fetch).
import { ArrowRight, Radio } from 'lucide-react';
import SiteLayout from '../../components/SiteLayout';
import StatusPanel from '../../components/public/StatusPanel';
import WaitlistStats from '../../components/public/WaitlistStats';
import WaitlistReward from '../../components/public/WaitlistReward';
import { ShareWaitlist } from '../../components/public/ShareButtons';
import styles from '../../components/public/Public.module.css';
import { useSearchParam } from '../../lib/use-search-params';
import { useWaitlist } from '../../lib/use-waitlist';
import { formatCount, positionText, referralsText } from '../../lib/waitlist';
import { orderText, useWaitlistLine } from '../../lib/waitlist-rewards';
import RetryButton from '../../components/public/RetryButton';
import { identityStaticProps } from '../../lib/build/public-props';

export default function WaitlistPage() {
  const code = useSearchParam('code');
  const list = useSearchParam('list');
  const { data, error, refresh } = useWaitlist(code.value, list.value);
  // The line's order and milestones (one read, shared with WaitlistReward).
  const line = useWaitlistLine(data?.list.slug ?? null);

  let content;
  if (code.ready && !code.value) {
    content = (
      <StatusPanel tone="error" title="This link is incomplete" actions={<HomeLink />}>
        <p>The waitlist link has no code. Use the link from your confirmation email.</p>
      </StatusPanel>
    );
  } else if (error?.code === 'not_found') {
    content = (
      <StatusPanel tone="error" title="We could not find that place in line" actions={<HomeLink />}>
        <p>
          No waitlist place has this code. Check that you opened the whole link from your email, or
          join the waitlist from the signup form.
        </p>
      </StatusPanel>
    );
  } else if (error) {
    content = (
      <StatusPanel
        tone="error"
        title="We could not load your place in line"
        actions={<RetryButton onRetry={() => void refresh()} />}
      >
        <p>{error.message}</p>
      </StatusPanel>
    );
  } else if (!data) {
    content = <StatusPanel tone="loading" title="Loading your place in line…" />;
  } else if (data.status === 'pending' || data.position === null) {
    content = (
      <StatusPanel tone="info" title="Confirm your email to get your place">
        <p>
          You signed up for <strong>{data.list.name}</strong>, but your address is not confirmed
          yet. Open the confirmation link we emailed you and your place appears here.
        </p>
        <p>This page updates on its own once you confirm.</p>
      </StatusPanel>
    );
  } else {
    content = (
      <section className={styles.card} aria-labelledby="waitlist-title">
        <div className={styles.status}>
          <h1 id="waitlist-title" className={styles.statusTitle}>
            {data.list.name}
          </h1>
          <p className={styles.statusBody} aria-live="polite">
            You are {positionText(data)} with {referralsText(data.referrals)}.
          </p>
          <p className={styles.live}>
            <Radio aria-hidden="true" />
            Updates live
          </p>
        </div>
        <WaitlistStats standing={data} />
        <ShareWaitlist listName={data.list.name} url={data.url} />
        <WaitlistReward slug={data.list.slug} referrals={data.referrals} />
        <div>
          <h2 className={styles.sectionTitle}>What the numbers mean</h2>
          <ul className={styles.sectionText} data-testid="waitlist-explained">
            <li>
              <strong>Your position</strong> is your place in the line:{' '}
              {aheadText(data.position ?? 1)} ahead of you.{' '}
              {line.data ? orderText(line.data.order) : null}
            </li>
            <li>
              <strong>In line</strong> is how many people are waiting on {data.list.name} right now,
              you included: {formatCount(data.total)}. When people ahead of you are let in, they
              leave the line and you move up.
            </li>
            <li>
              <strong>Referrals</strong> counts the friends who joined through your link and
              confirmed their email.
            </li>
          </ul>
        </div>
      </section>
    );
  }

  return <SiteLayout title="Your place in line">{content}</SiteLayout>;
}

/** "nobody is", "1 person is", "12 people are". */
function aheadText(position: number): string {
  const ahead = position - 1;
  if (ahead === 0) return 'nobody is';
  return `${formatCount(ahead)} ${ahead === 1 ? 'person is' : 'people are'}`;
}

function HomeLink() {
  return (
    <a href="/" className={styles.button}>
      Go to the signup form
      <ArrowRight aria-hidden="true" />
    </a>
  );
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
