// The editor opened without an id: an editor gets a new draft and lands on its id (the address
// is replaced, so Back does not make another); a viewer is told they cannot create campaigns.
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import { useCampaignWrites } from '../../../../lib/admin/use-campaigns';
import { buttonClass, EmptyState, ErrorState, LoadingState } from '../../../ui';
import { useAdmin } from '../../AdminLayout';

export function NewCampaign() {
  const router = useRouter();
  const { can } = useAdmin();
  const { create } = useCampaignWrites();
  const allowed = can('write-campaigns');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // Strict mode runs effects twice: one draft per attempt, never two.
  const started = useRef(-1);

  useEffect(() => {
    if (!allowed || started.current === attempt) return;
    started.current = attempt;
    void create().then((result) => {
      if (result.ok) {
        void router.replace(`/admin/campaigns/edit/?id=${encodeURIComponent(result.id)}`);
      } else {
        setError(result.message);
      }
    });
  }, [allowed, attempt, create, router]);

  if (!allowed) {
    return (
      <EmptyState
        title="Only editors can create campaigns."
        action={
          <Link className={buttonClass('secondary')} href="/admin/campaigns/">
            All campaigns
          </Link>
        }
      >
        You can read every campaign from the campaigns page.
      </EmptyState>
    );
  }
  if (error) {
    return (
      <ErrorState
        title="The new campaign could not be created."
        message={error}
        onRetry={() => {
          setError(null);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  return <LoadingState label="Creating a new draft…" />;
}
