// `/`: the site's name, tagline and logo from `settings`, the signup form for the public lists
// (a referral link `/?ref=<code>&list=<slug>` pre-checks its list and credits the referrer), and
// the subscriber count when the owner shows it, and the latest archived issues (SPEC §2).
import { Users } from 'lucide-react';
import Logo from '../components/Logo';
import SignupForm from '../components/SignupForm';
import SiteLayout from '../components/SiteLayout';
import LatestIssues from '../components/public/archive/LatestIssues';
import { usePublicLists } from '../lib/use-public-lists';
import { usePublicSettings } from '../lib/use-public-settings';
import { useSearchParam } from '../lib/use-search-params';
import { useSubscriberCount } from '../lib/use-subscriber-count';
import { formatCount } from '../lib/waitlist';
import styles from '../styles/Home.module.css';

export default function Home() {
  const { site } = usePublicSettings();
  const { lists } = usePublicLists();
  const ref = useSearchParam('ref');
  const list = useSearchParam('list');
  const count = useSubscriberCount(site.showSubscriberCount);
  const referred = Boolean(ref.value);

  return (
    <SiteLayout header={false}>
      <header className={styles.hero}>
        <Logo className={styles.logo} size={60} src={site.logoSrc} />
        <h1 className={styles.title}>{site.name}</h1>
        <p className={styles.tagline}>{site.tagline}</p>
        {count !== null && count > 0 && (
          <p className={styles.count} aria-live="polite">
            <Users aria-hidden="true" />
            Join {formatCount(count)} {count === 1 ? 'reader' : 'readers'}
          </p>
        )}
      </header>
      <section className={styles.card} aria-labelledby="signup-heading">
        <h2 id="signup-heading" className={styles.cardTitle}>
          Get the newsletter
        </h2>
        {referred && (
          <p className={styles.referred}>A friend invited you. Sign up below to join them.</p>
        )}
        {/* The form waits for the query string so a referral's list is checked from the start. */}
        <SignupForm
          key={ref.ready ? 'ready' : 'static'}
          lists={lists}
          initialList={list.value}
          referral={ref.value}
        />
      </section>
      <LatestIssues />
    </SiteLayout>
  );
}
