// Duplicate: a new draft copied from any campaign (duplicate_campaign: same lists and content,
// "(copy)" added, no schedule or stats), then its editor. A refusal shows beside the button.
import { Copy } from 'lucide-react';
import { useRouter } from 'next/router';
import { useState } from 'react';
import { useCampaignWrites } from '../../../lib/admin/use-campaigns';
import { Button } from '../../ui';
import styles from './list/Campaigns.module.css';

export function DuplicateButton({
  campaignId,
  name,
  variant = 'ghost',
}: {
  campaignId: string;
  /** Names the campaign to assistive tech where many share the page (the list's rows). */
  name?: string;
  variant?: 'ghost' | 'secondary';
}) {
  const router = useRouter();
  const { duplicate } = useCampaignWrites();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    const result = await duplicate(campaignId);
    if (result.ok) {
      await router.push(`/admin/campaigns/edit/?id=${encodeURIComponent(result.id)}`);
    } else {
      setBusy(false);
      setError(result.message);
    }
  }

  return (
    <>
      <Button
        size="sm"
        variant={variant}
        icon={<Copy />}
        loading={busy}
        onClick={() => void run()}
        aria-label={name ? `Duplicate ${name}` : undefined}
      >
        Duplicate
      </Button>
      {error ? (
        <span className={styles.inlineError} role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}
