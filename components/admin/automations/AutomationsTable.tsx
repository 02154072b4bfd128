// The automations list: name (a link to its editor) with its trigger, status, enrolments, and what
// its emails did as Kit and Mailchimp users read it: sent (failed under it), then open, click,
// unsubscribe and bounce rates of the emails sent with the count under each and the whole sentence
// on hover. Opens and clicks are "—" while not tracked. AutomationsSkeleton holds the same rows'
// place while the list loads. On phones each row is a card (Table's `stack`).
import Link from 'next/link';
import { Badge, statusTone, Table, tableStyles } from '../../ui';
import { WELCOME_LABEL, type AutomationWithCounts } from '../../../lib/admin/automations';
import { listFigures, type ListFigure } from '../../../lib/admin/automation-report';
import { formatCount } from '../../../lib/admin/format';
import styles from './Automations.module.css';

const TRIGGERS: Record<string, string> = {
  list: 'Joins a list',
  tag: 'Tag added',
  manual: 'Enrolled by hand',
};

export function triggerLabel(kind: string): string {
  return TRIGGERS[kind] ?? kind;
}

const ENROLMENTS = [
  ['active', 'In progress'],
  ['completed', 'Completed'],
  ['exited', 'Exited'],
] as const;

const FIGURES = [
  ['sent', 'Sent'],
  ['opened', 'Opened'],
  ['clicked', 'Clicked'],
  ['unsubscribed', 'Unsubscribed'],
  ['bounced', 'Bounced'],
] as const;

/** Columns that give way on narrower screens than a wide desktop (Automations.module.css). */
const HIDING: Record<string, string | undefined> = {
  exited: styles.secondary,
  bounced: styles.secondary,
  completed: styles.tertiary,
};
const hiding = (key: string) => HIDING[key] ?? '';

function Head() {
  return (
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Status</th>
        {[...ENROLMENTS, ...FIGURES].map(([key, label]) => (
          <th key={key} scope="col" className={`${tableStyles.num} ${hiding(key)}`}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function FigureCell({ figure, label, name }: { figure: ListFigure; label: string; name: string }) {
  return (
    <td className={`${tableStyles.num} ${hiding(name)}`} data-label={label} title={figure.title}>
      <span className={styles.figure} aria-hidden="true">
        {figure.text}
      </span>
      <span className={styles.detail} aria-hidden="true">
        {figure.detail}
      </span>
      <span className="visually-hidden">{figure.title}</span>
    </td>
  );
}

export function AutomationsTable({
  rows,
  tracking,
}: {
  rows: AutomationWithCounts[];
  tracking: { opens: boolean; clicks: boolean };
}) {
  return (
    <Table caption="Automations" captionHidden stack className={styles.list}>
      <Head />
      <tbody>
        {rows.map((a) => {
          const figures = listFigures(a.counts, tracking);
          return (
            <tr key={a.id} className={a.status === 'paused' ? styles.paused : undefined}>
              <th scope="row" className={tableStyles.full}>
                <Link href={`/admin/automations/edit/?id=${a.id}`} className={styles.name}>
                  {a.name}
                </Link>
                <span className={styles.muted}>
                  {a.welcome ? `${WELCOME_LABEL} · ` : ''}
                  {a.trigger_kind === 'list' && a.trigger_signups_only
                    ? 'Signs up through the form'
                    : triggerLabel(a.trigger_kind)}
                </span>
              </th>
              <td data-label="Status" className={styles.status}>
                <Badge tone={a.status === 'active' ? 'success' : statusTone(a.status)}>
                  {a.status === 'active' ? 'Active' : a.status === 'paused' ? 'Paused' : 'Draft'}
                </Badge>
              </td>
              {ENROLMENTS.map(([key, label]) => (
                <td key={key} className={`${tableStyles.num} ${hiding(key)}`} data-label={label}>
                  <span className={styles.figure}>{formatCount(a.counts[key])}</span>
                  <span className={styles.detail} />
                </td>
              ))}
              {FIGURES.map(([key, label]) => (
                <FigureCell key={key} name={key} label={label} figure={figures[key]} />
              ))}
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/**
 * The list's place while it loads: the same table with `rows` grey rows of the real rows' height,
 * so the answer replaces it without moving what is around it.
 */
export function AutomationsSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div role="status" aria-busy="true" aria-live="polite">
      <span className="visually-hidden">Loading automations…</span>
      <Table caption="Automations (loading)" captionHidden stack className={styles.list}>
        <Head />
        <tbody aria-hidden="true">
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i}>
              <th scope="row" className={tableStyles.full}>
                <span className={`${styles.bone} ${styles.boneName}`} />
                <span className={`${styles.bone} ${styles.boneLine}`} />
              </th>
              <td data-label="Status" className={styles.status}>
                <span className={`${styles.bone} ${styles.boneBadge}`} />
              </td>
              {[...ENROLMENTS, ...FIGURES].map(([key, label]) => (
                <td key={key} className={`${tableStyles.num} ${hiding(key)}`} data-label={label}>
                  <span className={`${styles.bone} ${styles.boneNum}`} />
                  <span className={styles.detail} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
