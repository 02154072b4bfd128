// Issues of the public archive as cards: the subject links to the issue (its pretty URL when the
// build pre-rendered it), then its date and the preheader as a summary. Used by /archive/ and the
// home page's "Latest issues".
import { issueDate, type ArchiveSummary } from '../../../lib/archive';
import { useIssueHref } from '../../../lib/archive-prerendered';
import styles from './Archive.module.css';

export default function IssueList({
  issues,
  headingLevel,
  label,
}: {
  issues: ArchiveSummary[];
  /** h2 under the archive's h1; h3 under the home page's "Latest issues" h2. */
  headingLevel: 2 | 3;
  label: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const issueHref = useIssueHref();
  return (
    <ol className={styles.list} aria-label={label}>
      {issues.map((issue) => (
        <li key={issue.id} className={styles.item}>
          <Heading className={styles.itemTitle}>
            <a href={issueHref(issue.slug)} className={styles.itemLink}>
              {issue.subject || 'Untitled issue'}
            </a>
          </Heading>
          <time className={styles.date} dateTime={issue.finished_at}>
            {issueDate(issue.finished_at)}
          </time>
          {issue.preheader && <p className={styles.summary}>{issue.preheader}</p>}
        </li>
      ))}
    </ol>
  );
}
