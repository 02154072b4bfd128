// `/`: the site's name, tagline and logo from `settings`, the signup form for the public lists
// (a referral link `/?ref=<code>&list=<slug>` pre-checks its list and credits the referrer), and
// the subscriber count when the owner shows it, and the latest archived issues (SPEC §2).
// While the identity loads the hero is a neutral placeholder; when the site cannot be read the page
// says so and offers Try again instead of a form that can only fail; with no public list there is
// no form at all, only "Signups are not open yet."
import { Users } from '../components/public/icons';
import { lazy, Suspense } from 'react';
import Logo from '../components/Logo';
import SignupForm from '../components/SignupForm';
import SiteLayout from '../components/SiteLayout';
import LatestIssues from '../components/public/archive/LatestIssues';
import { formatCount } from '../lib/format-count';
import { MESSAGES } from '../lib/subscribe-messages';
import { useLatestIssues } from '../lib/use-archive';
import { usePublicLists } from '../lib/use-public-lists';
import { usePublicSettings } from '../lib/use-public-settings';
import { useSearchParam } from '../lib/use-search-params';
import { useSubscriberCount } from '../lib/use-subscriber-count';
import styles from '../styles/Home.module.css';
import { publicFallback, type PublicPageProps } from '../lib/build/public-props';

// Only after a failed read, which the exported HTML never shows: loaded then.
const PageError = lazy(() => import('../components/public/PageError'));

export default function Home() {
  const settings = usePublicSettings();
  const { site } = settings;
  const publicLists = usePublicLists();
  const { lists } = publicLists;
  const latest = useLatestIssues();
  const ref = useSearchParam('ref');
  const list = useSearchParam('list');
  const count = useSubscriberCount(site.showSubscriberCount);
  const referred = Boolean(ref.value);

  const failed = settings.error ?? publicLists.error;
  if (failed) {
    const retry = () => {
      settings.retry();
      publicLists.retry();
      latest.retry();
    };
    return (
      <SiteLayout header={false}>
        <Suspense fallback={null}>
          <PageError message={failed.message} onRetry={retry} />
        </Suspense>
      </SiteLayout>
    );
  }

  const notOpen = lists !== undefined && lists.length === 0;

  return (
    <SiteLayout header={false}>
      {site.known ? (
        <header className={styles.hero}>
          <Logo className={styles.logo} size={60} src={site.logoSrc} />
          <h1 className={styles.title}>{site.name}</h1>
          {site.tagline && <p className={styles.tagline}>{site.tagline}</p>}
          {/* The count's line is held while the count loads, so nothing below it moves. */}
          {site.showSubscriberCount && (
            <p className={styles.countSlot} aria-live="polite">
              {count !== null && count > 0 && (
                <span className={styles.count}>
                  <Users aria-hidden="true" />
                  Join {formatCount(count)} {count === 1 ? 'reader' : 'readers'}
                </span>
              )}
            </p>
          )}
        </header>
      ) : (
        <div className={`${styles.hero} ${styles.placeholder}`} aria-hidden="true">
          <span className={styles.placeholderLogo} />
          <span className={styles.placeholderTitle} />
          <span className={styles.placeholderLine} />
        </div>
      )}
      <section className={styles.card} aria-labelledby="signup-heading">
        <h2 id="signup-heading" className={styles.cardTitle}>
          Get the newsletter
        </h2>
        {notOpen ? (
          <p className={styles.notOpen} role="status">
            {MESSAGES.not_open} Come back soon.
          </p>
        ) : (
          <>
            {referred && (
              <p className={styles.referred}>A friend invited you. Sign up below to join them.</p>
            )}
            {/* A referral's list (`?list=`, known after hydration) is checked as soon as it is
                known: the form derives its boxes from it until the visitor touches one. */}
            <SignupForm lists={lists} initialList={list.value} referral={ref.value} />
          </>
        )}
      </section>
      <LatestIssues />
    </SiteLayout>
  );
}

// The identity, the public lists, the latest issues and the subscriber count in the exported HTML
// (read at build time; the browser then reads them again).
export async function getStaticProps(): Promise<{ props: PublicPageProps }> {
  return { props: { fallback: await publicFallback({ lists: true, latest: true, count: true }) } };
}
