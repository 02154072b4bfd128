// The page of subscribers as a table: email (links to the subscriber), name, status, lists and
// signup date, with row checkboxes for bulk actions when the member may write.
import Link from 'next/link';
import { formatDay } from '../../../lib/admin/format';
import type { SubscriberRow } from '../../../lib/admin/subscribers';
import { Badge, statusTone, Table, tableStyles } from '../../ui';
import styles from './Subscribers.module.css';
import { EmailText } from './EmailText';

export function SubscribersTable({
  rows,
  listNames,
  selectable,
  selected,
  onToggle,
  onToggleAll,
  caption,
}: {
  rows: SubscriberRow[];
  listNames: Map<string, string>;
  selectable: boolean;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: (select: boolean) => void;
  caption: string;
}) {
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <Table caption={caption} captionHidden className={styles.rows}>
      <thead>
        <tr>
          {selectable ? (
            <th scope="col" className={styles.select}>
              <input
                type="checkbox"
                aria-label="Select all subscribers on this page"
                checked={allSelected}
                onChange={(e) => onToggleAll(e.target.checked)}
              />
            </th>
          ) : null}
          <th scope="col">Email</th>
          <th scope="col">Name</th>
          <th scope="col">Status</th>
          <th scope="col">Lists</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            {selectable ? (
              <td className={styles.select}>
                <input
                  type="checkbox"
                  aria-label={`Select ${row.email}`}
                  checked={selected.has(row.id)}
                  onChange={() => onToggle(row.id)}
                />
              </td>
            ) : null}
            <td>
              <Link
                className={styles.email}
                href={`/admin/subscribers/view/?id=${encodeURIComponent(row.id)}`}
              >
                <EmailText email={row.email} />
              </Link>
            </td>
            <td className={styles.nameCell}>
              {row.name || <span className={tableStyles.muted}>—</span>}
            </td>
            <td>
              <Badge tone={statusTone(row.status)}>{row.status}</Badge>
            </td>
            <td>
              {row.subscriptions.length === 0 ? (
                <span className={tableStyles.muted}>None</span>
              ) : (
                <span className={styles.lists}>
                  {row.subscriptions.map((s) => (
                    <Badge key={s.list_id} tone={statusTone(s.status)}>
                      {listNames.get(s.list_id) ?? 'Unknown list'}
                      {s.status === 'confirmed' ? '' : ` · ${s.status}`}
                    </Badge>
                  ))}
                </span>
              )}
            </td>
            <td className={styles.nowrap}>{formatDay(row.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
