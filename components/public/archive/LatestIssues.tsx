// The home page's "Latest issues" (SPEC §2): the three newest archived issues and a link to the
// archive. Hidden when there are none, and while loading or after a failed read: it is a
// side-dish of the signup page, which must not show a spinner or an error for it.
import { ArrowRight } from '../icons';
import { useLatestIssues } from '../../../lib/use-archive';
import IssueList from './IssueList';
import styles from './Archive.module.css';

export default function LatestIssues() {
  const { issues } = useLatestIssues();
  if (!issues || issues.length === 0) return null;
  return (
    <section className={styles.latest} aria-labelledby="latest-heading">
      <div className={styles.latestHead}>
        <h2 id="latest-heading" className={styles.latestTitle}>
          Latest issues
        </h2>
        <a href="/archive/" className={styles.allLink}>
          All issues
          <ArrowRight aria-hidden="true" />
        </a>
      </div>
      <IssueList issues={issues} headingLevel={3} label="Latest issues" />
    </section>
  );
}
