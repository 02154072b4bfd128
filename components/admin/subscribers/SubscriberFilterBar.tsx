// Search box (debounced) and the list, status and sort selects above the subscribers table.
import { useEffect, useState } from 'react';
import {
  SORTS,
  SUBSCRIBER_STATUSES,
  SUBSCRIPTION_STATUSES,
  type SubscriberFilters,
  type SubscriberSort,
  type SubscriberStatus,
  type SubscriptionStatus,
} from '../../../lib/admin/subscriber-query';
import type { ListOption } from '../../../lib/admin/use-subscribers';
import { SelectField, TextField } from '../../ui';
import { TagSegmentFilters } from '../segments/TagSegmentFilters';
import styles from './Subscribers.module.css';

/** How long typing must pause before the search runs (one request per pause, not per key). */
const SEARCH_DELAY_MS = 300;

const LABELS: Record<string, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
  enabled: 'Enabled',
  blocklisted: 'Blocklisted',
};

export function SubscriberFilterBar({
  filters,
  lists,
  onChange,
}: {
  filters: SubscriberFilters;
  lists: ListOption[];
  onChange: (next: SubscriberFilters) => void;
}) {
  const [text, setText] = useState(filters.search);

  // "Clear filters" resets the search from outside: show it in the box.
  useEffect(() => setText(filters.search), [filters.search]);

  useEffect(() => {
    if (text === filters.search) return;
    const timer = setTimeout(() => onChange({ ...filters, search: text }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);

  return (
    <div className={styles.filters} role="search" aria-label="Filter subscribers">
      <div className={styles.search}>
        <TextField
          label="Search"
          type="search"
          placeholder="Email or name"
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
        />
      </div>
      <SelectField
        label="List"
        value={filters.listId ?? ''}
        onChange={(e) => onChange({ ...filters, listId: e.target.value || null })}
      >
        <option value="">All lists</option>
        {lists.map((list) => (
          <option key={list.id} value={list.id}>
            {list.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Subscription"
        value={filters.subscription ?? ''}
        onChange={(e) =>
          onChange({
            ...filters,
            subscription: (e.target.value || null) as SubscriptionStatus | null,
          })
        }
      >
        <option value="">Any subscription</option>
        {SUBSCRIPTION_STATUSES.map((s) => (
          <option key={s} value={s}>
            {LABELS[s]}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Status"
        value={filters.status ?? ''}
        onChange={(e) =>
          onChange({ ...filters, status: (e.target.value || null) as SubscriberStatus | null })
        }
      >
        <option value="">Any status</option>
        {SUBSCRIBER_STATUSES.map((s) => (
          <option key={s} value={s}>
            {LABELS[s]}
          </option>
        ))}
      </SelectField>
      <TagSegmentFilters filters={filters} onChange={onChange} />
      <SelectField
        label="Sort"
        value={filters.sort}
        onChange={(e) => onChange({ ...filters, sort: e.target.value as SubscriberSort })}
      >
        {SORTS.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
