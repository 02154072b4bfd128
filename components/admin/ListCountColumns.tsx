// The confirmed / pending / unsubscribed columns every table of lists shows (dashboard, lists page).
import { formatCount } from '../../lib/admin/format';
import type { ListCounts } from '../../lib/admin/lists';
import { tableStyles } from '../ui';

const COLUMNS: Array<[keyof ListCounts, string]> = [
  ['confirmed', 'Confirmed'],
  ['pending', 'Pending'],
  ['unsubscribed', 'Unsubscribed'],
];

export function ListCountHeads() {
  return (
    <>
      {COLUMNS.map(([key, label]) => (
        <th key={key} scope="col" className={tableStyles.num}>
          {label}
        </th>
      ))}
    </>
  );
}

export function ListCountCells({ counts }: { counts: ListCounts }) {
  return (
    <>
      {COLUMNS.map(([key, label]) => (
        <td key={key} className={tableStyles.num} data-label={label}>
          {formatCount(counts[key])}
        </td>
      ))}
    </>
  );
}
