// /admin/automations/: every automation with its status, enrolments and what its emails did (sent,
// open, click, unsubscribe and bounce rates; one read of the automation_report view for the whole
// list), live through team:automations, and for editors and up a form that creates a draft and
// opens it in the editor.
import { Plus, Workflow } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useState, type FormEvent } from 'react';
import AdminLayout, { useAdmin } from '../../../components/admin/AdminLayout';
import {
  AutomationsSkeleton,
  AutomationsTable,
} from '../../../components/admin/automations/AutomationsTable';
import { FeedIndicator } from '../../../components/admin/SignupFeed';
import styles from '../../../components/admin/automations/Automations.module.css';
import {
  Button,
  Card,
  EmptyState,
  ErrorState,
  StatusMessage,
  TextField,
} from '../../../components/ui';
import {
  useAutomations,
  useAutomationWrites,
  useLiveAutomations,
} from '../../../lib/admin/use-automations';
import { useSettings } from '../../../lib/admin/use-settings';

function NewAutomation() {
  const router = useRouter();
  const { create } = useAutomationWrites();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await create(name);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    await router.push(`/admin/automations/edit/?id=${result.data}`);
  };
  return (
    <form className={styles.create} onSubmit={(e) => void submit(e)}>
      <TextField
        label="New automation"
        placeholder="e.g. Welcome series"
        value={name}
        maxLength={100}
        error={error}
        onChange={(e) => {
          setName(e.target.value);
          setError(null);
        }}
      />
      <Button type="submit" variant="primary" icon={<Plus />} disabled={busy || !name.trim()}>
        Create draft
      </Button>
    </form>
  );
}

function AutomationsContent() {
  const { can } = useAdmin();
  const live = useLiveAutomations(null);
  const automations = useAutomations(live);
  const settings = useSettings();
  const canWrite = can('write-campaigns');
  // Opens and clicks are tracked or not as Settings say (when they cannot be read: only where some
  // were counted); the table waits for them, so no column changes width after it appears.
  const tracking = {
    opens: settings.data?.track_opens ?? false,
    clicks: settings.data?.track_clicks ?? false,
  };
  let body;
  if (automations.error && !automations.data) {
    body = (
      <ErrorState
        title="The automations could not be loaded."
        message={automations.error.message}
        onRetry={() => void automations.mutate()}
      />
    );
  } else if (!automations.data || (settings.data === undefined && !settings.error)) {
    body = <AutomationsSkeleton />;
  } else if (automations.data.length === 0) {
    body = (
      <EmptyState title="No automations yet." icon={<Workflow />}>
        An automation sends a sequence of emails when someone joins a list, gets a tag or is
        enrolled by hand — a welcome series, an onboarding course.
      </EmptyState>
    );
  } else {
    body = (
      <>
        {automations.error ? (
          <div className={styles.stale}>
            <StatusMessage tone="error">
              The numbers could not be refreshed ({automations.error.message}); these are from the
              last read.
            </StatusMessage>
          </div>
        ) : null}
        <AutomationsTable rows={automations.data} tracking={tracking} />
        {!tracking.opens || !tracking.clicks ? (
          <p className={styles.listNote}>
            {!tracking.opens && !tracking.clicks
              ? 'Opens and clicks are'
              : !tracking.opens
                ? 'Opens are'
                : 'Clicks are'}{' '}
            not tracked (“—”). The owner can turn tracking on in{' '}
            <Link href="/admin/settings/">Settings</Link>. Rates are of the emails sent, with the
            count under each.
          </p>
        ) : (
          <p className={styles.listNote}>
            Rates are of the emails sent, with the count under each.
          </p>
        )}
      </>
    );
  }
  return (
    <div className={styles.page}>
      {!canWrite ? (
        <StatusMessage tone="info">
          You can view automations. Editors and up can create and change them.
        </StatusMessage>
      ) : null}
      <Card
        title="All automations"
        actions={
          <div className={styles.listActions}>
            <FeedIndicator status={live} />
            {canWrite ? <NewAutomation /> : null}
          </div>
        }
        flush
      >
        {body}
      </Card>
    </div>
  );
}

export default function AutomationsPage() {
  return (
    <AdminLayout title="Automations">
      <AutomationsContent />
    </AdminLayout>
  );
}
