// The subscribers filter bar's Tag and Segment selects (issue 24); shown only when there is a tag
// or a segment to choose, so a team that uses neither keeps the bar as it was.
import { useTags } from '../../../lib/admin/use-tags';
import { useSegments } from '../../../lib/admin/use-segments';
import type { SubscriberFilters } from '../../../lib/admin/subscriber-query';
import { SelectField } from '../../ui';

export function TagSegmentFilters({
  filters,
  onChange,
}: {
  filters: SubscriberFilters;
  onChange: (next: SubscriberFilters) => void;
}) {
  const tags = useTags();
  const segments = useSegments();
  return (
    <>
      {(tags.data ?? []).length > 0 || filters.tagId ? (
        <SelectField
          label="Tag"
          value={filters.tagId ?? ''}
          onChange={(e) => onChange({ ...filters, tagId: e.target.value || null })}
        >
          <option value="">Any tags</option>
          {(tags.data ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {(segments.data ?? []).length > 0 || filters.segmentId ? (
        <SelectField
          label="Segment"
          value={filters.segmentId ?? ''}
          onChange={(e) => onChange({ ...filters, segmentId: e.target.value || null })}
        >
          <option value="">Everyone</option>
          {(segments.data ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectField>
      ) : null}
    </>
  );
}
