// /admin/automations/: every automation with its status and counts (live through team:automations), and for
// editors and up a form that creates a draft and opens it in the editor.
import { Plus, Workflow } from 'lucide-react';
import { useRouter } from 'next/router';
import { useState, type FormEvent } from 'react';
import AdminLayout, { useAdmin } from '../../../components/admin/AdminLayout';
import { AutomationsTable } from '../../../components/admin/automations/AutomationsTable';
import styles from '../../../components/admin/automations/Automations.module.css';
import {
  Button,
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  StatusMessage,
  TextField,
} from '../../../components/ui';
import {
  useAutomations,
  useAutomationWrites,
  useLiveAutomations,
} from '../../../lib/admin/use-automations';

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
  const automations = useAutomations(useLiveAutomations(null));
  const canWrite = can('write-campaigns');
  let body;
  if (automations.error && !automations.data) {
    body = (
      <ErrorState
        title="The automations could not be loaded."
        message={automations.error.message}
        onRetry={() => void automations.mutate()}
      />
    );
  } else if (!automations.data) {
    body = <LoadingState label="Loading automations…" />;
  } else if (automations.data.length === 0) {
    body = (
      <EmptyState title="No automations yet." icon={<Workflow />}>
        An automation sends a sequence of emails when someone joins a list, gets a tag or is
        enrolled by hand — a welcome series, an onboarding course.
      </EmptyState>
    );
  } else {
    body = <AutomationsTable rows={automations.data} />;
  }
  return (
    <div className={styles.page}>
      {!canWrite ? (
        <StatusMessage tone="info">
          You can view automations. Editors and up can create and change them.
        </StatusMessage>
      ) : null}
      <Card title="All automations" actions={canWrite ? <NewAutomation /> : null} flush>
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
