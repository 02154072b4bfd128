// One subscriber's event history, newest first, as readable lines with when and how it happened,
// who made a change and, for an edit, each field's old → new value; tags by their current names.
import { eventActor, eventChanges } from '../../../lib/admin/event-changes';
import { eventLabel, eventSource, tagNamesFor } from '../../../lib/admin/event-labels';
import { formatMoment } from '../../../lib/admin/format';
import { EVENT_LIMIT } from '../../../lib/admin/subscriber';
import { useSubscriberEvents } from '../../../lib/admin/use-subscriber';
import { useTags } from '../../../lib/admin/use-tags';
import { Card, ErrorState, LoadingState } from '../../ui';
import styles from './Subscribers.module.css';

export function HistoryCard({
  subscriberId,
  listNames,
}: {
  subscriberId: string;
  listNames: Record<string, string>;
}) {
  const events = useSubscriberEvents(subscriberId);
  // Shared with the Tags card (one request); until it answers, events name the tag they recorded.
  const tags = useTags();
  const tagNames = tagNamesFor(events.data ?? [], tags.data ?? undefined);
  let body;
  if (events.error && !events.data) {
    body = (
      <ErrorState
        title="The history could not be loaded."
        message={events.error.message}
        onRetry={() => void events.mutate()}
      />
    );
  } else if (!events.data) {
    body = <LoadingState label="Loading history…" />;
  } else if (events.data.length === 0) {
    body = <p className={styles.cardEmpty}>Nothing has happened yet.</p>;
  } else {
    body = (
      <>
        <ol className={styles.history} aria-label="Events, newest first">
          {events.data.map((event) => {
            const source = [eventSource(event.data), eventActor(event.data)]
              .filter(Boolean)
              .join(' ');
            const changes = eventChanges(event.data);
            return (
              <li key={event.id} className={styles.historyItem}>
                <span className={styles.historyWhat}>
                  {eventLabel(event.type, event.data, listNames, tagNames)}
                </span>
                <time className={styles.historyWhen} dateTime={event.created_at}>
                  {formatMoment(event.created_at)}
                </time>
                {source ? <span className={styles.historySource}>{source}</span> : null}
                {changes.length > 0 ? (
                  <ul className={styles.historyChanges}>
                    {changes.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ol>
        {events.data.length >= EVENT_LIMIT ? (
          <p className={styles.cardEmpty}>
            Showing the latest {EVENT_LIMIT} events; the JSON export has all of them.
          </p>
        ) : null}
      </>
    );
  }
  return (
    <Card title="History" flush>
      {body}
    </Card>
  );
}
