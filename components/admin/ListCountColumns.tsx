// The confirmed / pending / unsubscribed columns every table of lists shows (dashboard, lists page);
// each count links to the subscribers page filtered to that list and status.
import Link from 'next/link';
import { formatCount } from '../../lib/admin/format';
import type { ListWithCounts } from '../../lib/admin/lists';
import { tableStyles } from '../ui';

type CountKey = keyof ListWithCounts['counts'];

const COLUMNS: Array<[CountKey, string]> = [
  ['confirmed', 'Confirmed'],
  ['pending', 'Pending'],
  ['unsubscribed', 'Unsubscribed'],
];

/** Where a count leads: the subscribers of `slug` whose subscription is `status` (the page's own query form). */
export function subscribersHref(slug: string, status: CountKey): string {
  return `/admin/subscribers/?list=${encodeURIComponent(slug)}&subscription=${status}`;
}

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

export function ListCountCells({
  list,
}: {
  list: Pick<ListWithCounts, 'slug' | 'name' | 'counts'>;
}) {
  return (
    <>
      {COLUMNS.map(([key, label]) => {
        const count = formatCount(list.counts[key]);
        return (
          <td key={key} className={tableStyles.num} data-label={label}>
            <Link
              href={subscribersHref(list.slug, key)}
              aria-label={`${count} ${label.toLowerCase()} in ${list.name}`}
            >
              {count}
            </Link>
          </td>
        );
      })}
    </>
  );
}
