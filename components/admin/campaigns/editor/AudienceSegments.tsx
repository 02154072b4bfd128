// The campaign editor's segment picker (issue 24), under the list picker: segments to include
// (recipients must be in at least one) and to exclude, each removable, with the live count of
// recipients for the lists plus segments. Segments are read again when sending starts, and the
// recipients fixed then.
import { X } from 'lucide-react';
import Link from 'next/link';
import { useMemo } from 'react';
import { audienceSummary, type AudienceMode } from '../../../../lib/admin/campaign-audience';
import {
  useAudienceCount,
  useCampaignSegments,
  useSetCampaignSegment,
} from '../../../../lib/admin/campaign-audience-use';
import { useSegments } from '../../../../lib/admin/use-segments';
import { SelectField, StatusMessage } from '../../../ui';
import tagStyles from '../../tags/Tags.module.css';

const MODES: Record<AudienceMode, { label: string; empty: string }> = {
  include: { label: 'Only people in segment', empty: 'Add a segment to include…' },
  exclude: { label: 'Leave out segment', empty: 'Add a segment to leave out…' },
};

export function AudienceSegments({
  campaignId,
  listIds,
  readOnly,
}: {
  campaignId: string | null;
  listIds: string[];
  readOnly: boolean;
}) {
  const segments = useSegments();
  const chosen = useCampaignSegments(campaignId);
  const set = useSetCampaignSegment(campaignId, () => chosen.mutate());
  const count = useAudienceCount(listIds, chosen.data ?? undefined);
  const names = useMemo(
    () => new Map((segments.data ?? []).map((s) => [s.id, s.name])),
    [segments.data],
  );
  const picked = chosen.data ?? [];

  if (!campaignId) {
    return <p>Segments can be chosen once the campaign is saved.</p>;
  }
  if (segments.data && segments.data.length === 0 && picked.length === 0) {
    return (
      <p>
        No segments yet. <Link href="/admin/subscribers/segments/">Make one</Link> to narrow or
        leave out part of the lists.
      </p>
    );
  }

  return (
    <div aria-label="Segments" role="group">
      {(Object.keys(MODES) as AudienceMode[]).map((mode) => {
        const mine = picked.filter((p) => p.mode === mode);
        return (
          <div key={mode}>
            {mine.length ? (
              <ul className={tagStyles.chips} aria-label={MODES[mode].label}>
                {mine.map((p) => (
                  <li key={p.segmentId} className={tagStyles.chip}>
                    {mode === 'exclude' ? 'Not in ' : 'In '}
                    {names.get(p.segmentId) ?? 'a segment'}
                    {readOnly ? null : (
                      <button
                        type="button"
                        className={tagStyles.remove}
                        aria-label={`Remove ${names.get(p.segmentId) ?? 'segment'}`}
                        disabled={set.pending}
                        onClick={() => void set.run(p.segmentId, null)}
                      >
                        <X aria-hidden="true" />
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            ) : null}
            {readOnly ? null : (
              <SelectField
                label={MODES[mode].label}
                value=""
                disabled={set.pending}
                onChange={(e) => e.target.value && void set.run(e.target.value, mode)}
              >
                <option value="">{MODES[mode].empty}</option>
                {(segments.data ?? [])
                  .filter((s) => !picked.some((p) => p.segmentId === s.id))
                  .map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
              </SelectField>
            )}
          </div>
        );
      })}
      {set.error ? (
        <StatusMessage tone="error">
          {set.error.message.replace(/^postbox:[a-z_]+: /, '')}
        </StatusMessage>
      ) : null}
      {picked.length > 0 && listIds.length > 0 ? (
        <p aria-live="polite">
          {count.error
            ? `The recipients could not be counted: ${count.error.message}`
            : count.data === undefined || count.data === null
              ? 'Counting recipients…'
              : audienceSummary(count.data, picked, names)}
        </p>
      ) : null}
    </div>
  );
}
