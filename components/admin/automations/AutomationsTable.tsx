// The automations list: name (a link to its editor), status, trigger and the enrolment and send counts.
import Link from 'next/link';
import { Badge, statusTone, Table, tableStyles } from '../../ui';
import type { AutomationWithCounts } from '../../../lib/admin/automations';
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

const COLUMNS = [
  ['active', 'In progress'],
  ['completed', 'Completed'],
  ['exited', 'Exited'],
  ['sent', 'Sent'],
  ['failed', 'Failed'],
] as const;

export function AutomationsTable({ rows }: { rows: AutomationWithCounts[] }) {
  return (
    <Table caption="Automations" captionHidden stack>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Status</th>
          <th scope="col">Trigger</th>
          {COLUMNS.map(([key, label]) => (
            <th key={key} scope="col" className={tableStyles.num}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.id}>
            <th scope="row" className={tableStyles.full}>
              <Link href={`/admin/automations/edit/?id=${a.id}`} className={styles.name}>
                {a.name}
              </Link>
            </th>
            <td data-label="Status">
              <Badge tone={a.status === 'active' ? 'success' : statusTone(a.status)}>
                {a.status === 'active' ? 'Active' : a.status === 'paused' ? 'Paused' : 'Draft'}
              </Badge>
            </td>
            <td data-label="Trigger">{triggerLabel(a.trigger_kind)}</td>
            {COLUMNS.map(([key, label]) => (
              <td key={key} className={tableStyles.num} data-label={label}>
                {formatCount(a.counts[key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
