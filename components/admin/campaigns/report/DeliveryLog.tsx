// The per-recipient delivery log of a report: filter by status, keyset pages of 50, and (admins)
// "Retry failed", which puts failed deliveries back in the queue through send-campaign.
import { ChevronLeft, ChevronRight, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import {
  DELIVERY_STATUSES,
  isDeliveryStatus,
  type DeliveryStatus,
} from '../../../../lib/admin/campaign-report';
import { formatMoment } from '../../../../lib/admin/format';
import { useDeliveries, useRetryFailed } from '../../../../lib/admin/use-campaign-report';
import {
  Badge,
  Button,
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  SelectField,
  StatusMessage,
  statusTone,
  Table,
  tableStyles,
} from '../../../ui';
import styles from './Report.module.css';

const STATUS_TEXT: Record<DeliveryStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  bounced: 'Bounced',
};

export function DeliveryLog({
  campaignId,
  failed,
  canRetry,
}: {
  campaignId: string;
  /** Failed deliveries now (from the report), to offer the retry only when there are some. */
  failed: number;
  canRetry: boolean;
}) {
  const [status, setStatus] = useState<DeliveryStatus | null>(null);
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const after = pages[pages.length - 1] ?? null;
  const { data, error, isValidating, mutate } = useDeliveries(campaignId, status, after);
  const { retry, pending } = useRetryFailed(campaignId);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function onRetry() {
    setResult(null);
    const outcome = await retry();
    if (outcome.ok) {
      setResult({
        tone: 'success',
        text:
          outcome.retried === 0
            ? 'No failed deliveries were left to retry.'
            : `${outcome.retried} failed ${outcome.retried === 1 ? 'delivery is' : 'deliveries are'} back in the queue.`,
      });
      setPages([null]);
    } else {
      setResult({ tone: 'error', text: outcome.message });
    }
  }

  let body;
  if (error) {
    body = (
      <ErrorState
        title="The delivery log could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  } else if (!data) {
    body = <LoadingState label="Loading deliveries…" />;
  } else if (data.rows.length === 0) {
    body = (
      <EmptyState
        title={status ? `No ${STATUS_TEXT[status].toLowerCase()} deliveries.` : 'No deliveries.'}
      >
        {status
          ? 'Choose another status to see more.'
          : 'Deliveries appear once the campaign is sent.'}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <Table caption="Deliveries" captionHidden stack aria-busy={isValidating}>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Status</th>
              <th scope="col" className={tableStyles.num}>
                Attempts
              </th>
              <th scope="col">Last error</th>
              <th scope="col">Sent</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((d) => (
              <tr key={d.subscriber_id}>
                <th scope="row" className={`${styles.email} ${tableStyles.full}`}>
                  {d.email ?? 'Deleted subscriber'}
                </th>
                <td data-label="Status">
                  <Badge tone={statusTone(d.status)}>{STATUS_TEXT[d.status]}</Badge>
                </td>
                <td data-label="Attempts" className={tableStyles.num}>
                  {d.attempts}
                </td>
                <td data-label="Last error" className={`${styles.error} ${tableStyles.full}`}>
                  {d.last_error ?? '—'}
                </td>
                <td data-label="Sent">
                  {d.sent_at ? <time dateTime={d.sent_at}>{formatMoment(d.sent_at)}</time> : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
        {pages.length > 1 || data.next ? (
          <div className={styles.pager}>
            <Button
              size="sm"
              icon={<ChevronLeft />}
              disabled={pages.length <= 1}
              onClick={() => setPages((p) => p.slice(0, -1))}
            >
              Previous
            </Button>
            <Button
              size="sm"
              icon={<ChevronRight />}
              disabled={!data.next}
              onClick={() => data.next && setPages((p) => [...p, data.next])}
            >
              Next
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <Card
      title="Delivery log"
      flush
      actions={
        canRetry && failed > 0 ? (
          <Button icon={<RotateCcw />} loading={pending} onClick={() => void onRetry()}>
            Retry failed
          </Button>
        ) : null
      }
    >
      <div className={styles.logTools}>
        <SelectField
          label="Delivery status"
          className={styles.filter}
          value={status ?? ''}
          onChange={(event) => {
            const value = event.target.value;
            setStatus(isDeliveryStatus(value) ? value : null);
            setPages([null]);
          }}
        >
          <option value="">All statuses</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_TEXT[s]}
            </option>
          ))}
        </SelectField>
        {result ? <StatusMessage tone={result.tone}>{result.text}</StatusMessage> : null}
      </div>
      {body}
    </Card>
  );
}
