// One subscriber's lists: status and dates per list, and (admins) subscribe, confirm or unsubscribe
// per list; the lists they are not on can be added from the same list.
import { useMemo } from 'react';
import { formatDay } from '../../../lib/admin/format';
import type { SubscriberDetail } from '../../../lib/admin/subscriber';
import type { SubscriptionStatus } from '../../../lib/admin/subscriber-query';
import { useSetSubscriptionStatus } from '../../../lib/admin/use-subscriber';
import type { ListOption } from '../../../lib/admin/use-subscribers';
import { useAdmin } from '../AdminContext';
import { Badge, Button, Card, StatusMessage, statusTone, tableStyles } from '../../ui';
import styles from './Subscribers.module.css';

interface Row {
  list: ListOption;
  status: SubscriptionStatus | null;
  created: string | null;
  confirmed: string | null;
  unsubscribed: string | null;
}

/** What an admin can do on a list in this status (SPEC §4: confirmed never goes back to pending). */
function actionsFor(
  status: SubscriptionStatus | null,
): Array<{ to: SubscriptionStatus; label: string; preposition: string }> {
  const unsubscribe = { to: 'unsubscribed' as const, label: 'Unsubscribe', preposition: 'from' };
  if (status === null) return [{ to: 'confirmed', label: 'Subscribe', preposition: 'to' }];
  if (status === 'pending')
    return [{ to: 'confirmed', label: 'Confirm', preposition: 'on' }, unsubscribe];
  if (status === 'confirmed') return [unsubscribe];
  return [{ to: 'confirmed', label: 'Resubscribe', preposition: 'to' }];
}

export function SubscriptionsCard({
  subscriber,
  lists,
}: {
  subscriber: SubscriberDetail;
  lists: ListOption[];
}) {
  const { can } = useAdmin();
  const write = useSetSubscriptionStatus();
  const editable = can('manage-subscribers') && subscriber.status === 'enabled';
  const rows = useMemo<Row[]>(() => {
    const byList = new Map(subscriber.subscriptions.map((s) => [s.list_id, s]));
    const on: Row[] = subscriber.subscriptions.map((s) => ({
      list: lists.find((l) => l.id === s.list_id) ?? {
        id: s.list_id,
        slug: s.lists?.slug ?? '',
        name: s.lists?.name ?? 'Unknown list',
        visibility: 'private',
      },
      status: s.status as SubscriptionStatus,
      created: s.created_at,
      confirmed: s.confirmed_at,
      unsubscribed: s.unsubscribed_at,
    }));
    // Admins also see the lists the subscriber is not on, to add them there.
    const off: Row[] = can('manage-subscribers')
      ? lists
          .filter((l) => !byList.has(l.id))
          .map((list) => ({
            list,
            status: null,
            created: null,
            confirmed: null,
            unsubscribed: null,
          }))
      : [];
    return [...on, ...off];
  }, [subscriber.subscriptions, lists, can]);

  return (
    <Card title="Subscriptions" flush>
      {subscriber.status === 'blocklisted' && can('manage-subscribers') ? (
        <div className={styles.cardNote}>
          <StatusMessage tone="info">
            A blocklisted subscriber cannot be subscribed. Enable them first.
          </StatusMessage>
        </div>
      ) : null}
      {write.error ? (
        <div className={styles.cardNote}>
          <StatusMessage tone="error">{write.error.message}</StatusMessage>
        </div>
      ) : null}
      {rows.length === 0 ? (
        <p className={styles.cardEmpty}>Not on any list.</p>
      ) : (
        <ul className={styles.subscriptions} aria-label="Lists">
          {rows.map((row) => (
            <li key={row.list.id} className={styles.subscription}>
              <div className={styles.subscriptionHead}>
                <span className={styles.subscriptionName}>{row.list.name}</span>
                {row.status ? (
                  <Badge tone={statusTone(row.status)}>{row.status}</Badge>
                ) : (
                  <span className={tableStyles.muted}>Not subscribed</span>
                )}
              </div>
              {row.status ? (
                <p className={styles.subscriptionDates}>
                  Subscribed {formatDay(row.created)}
                  {row.confirmed ? ` · confirmed ${formatDay(row.confirmed)}` : ''}
                  {row.unsubscribed ? ` · unsubscribed ${formatDay(row.unsubscribed)}` : ''}
                </p>
              ) : null}
              {editable ? (
                <div className={styles.subscriptionActions}>
                  {actionsFor(row.status).map((action) => (
                    <Button
                      key={action.to}
                      size="sm"
                      variant={action.to === 'unsubscribed' ? 'ghost' : 'secondary'}
                      aria-label={`${action.label} ${action.preposition} ${row.list.name}`}
                      disabled={write.pending}
                      onClick={() =>
                        void write.run(subscriber.id, row.list.id, action.to, row.status !== null)
                      }
                    >
                      {action.label}
                    </Button>
                  ))}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
