// A campaign's status as a badge (the word carries the meaning, the tone the colour).
import { Badge, statusTone } from '../../../ui';
import { statusLabel } from '../../../../lib/admin/campaigns';

export function CampaignStatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{statusLabel(status)}</Badge>;
}
