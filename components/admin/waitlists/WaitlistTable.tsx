// One page of a waitlist in rank order: place, who, referrals and when they joined the line; admins
// tick rows to let in chosen people.
import { formatCount, formatDay } from '../../../lib/admin/format';
import type { RankedMember } from '../../../lib/admin/use-waitlist-admin';
import { Table, tableStyles } from '../../ui';

export function WaitlistTable({
  rows,
  selectable,
  chosen,
  onToggle,
}: {
  rows: RankedMember[];
  selectable: boolean;
  chosen: Set<string>;
  onToggle: (id: string) => void;
}) {
  return (
    <Table caption="People in line, first in line first" captionHidden>
      <thead>
        <tr>
          {selectable ? (
            <th scope="col">
              <span className="visually-hidden">Select</span>
            </th>
          ) : null}
          <th scope="col">Place</th>
          <th scope="col">Subscriber</th>
          <th scope="col">Referrals</th>
          <th scope="col">Joined</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.subscriber_id}>
            {selectable ? (
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${r.email}`}
                  checked={chosen.has(r.subscriber_id)}
                  onChange={() => onToggle(r.subscriber_id)}
                />
              </td>
            ) : null}
            <td data-testid="waitlist-place">#{formatCount(r.place)}</td>
            <th scope="row">
              <a href={`/admin/subscribers/view/?id=${r.subscriber_id}`}>{r.email}</a>
              {r.name ? <span className={tableStyles.muted}> {r.name}</span> : null}
            </th>
            <td>{formatCount(r.referrals)}</td>
            <td>{formatDay(r.joined_at)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
