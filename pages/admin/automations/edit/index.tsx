// /admin/automations/edit/?id=: one automation — its settings and status, the report (in progress,
// completed, exited; sent, failed, bounced, unsubscribed, opened and clicked, in total and per email
// step), live through team:automations, and its steps as a vertical timeline with per-step counts.
// Editors change drafts and paused ones; admins and owners start, pause and edit live.
import { ArrowLeft, Plus } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import AdminLayout, { useAdmin } from '../../../../components/admin/AdminLayout';
import { AutomationReport } from '../../../../components/admin/automations/AutomationReport';
import { AutomationSettings } from '../../../../components/admin/automations/AutomationSettings';
import styles from '../../../../components/admin/automations/Automations.module.css';
import { StepForm } from '../../../../components/admin/automations/StepForm';
import { StepTimeline } from '../../../../components/admin/automations/StepTimeline';
import { triggerLabel } from '../../../../components/admin/automations/AutomationsTable';
import {
  Button,
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  StatusMessage,
} from '../../../../components/ui';
import { mayEdit } from '../../../../lib/admin/automations';
import { stepCounts } from '../../../../lib/admin/automation-report';
import { useLists } from '../../../../lib/admin/use-lists';
import { useSegments } from '../../../../lib/admin/use-segments';
import {
  useAutomation,
  useAutomationReport,
  useAutomationTags,
  useAutomationWrites,
  useLiveAutomations,
} from '../../../../lib/admin/use-automations';
import { useSettings } from '../../../../lib/admin/use-settings';
import { useSearchParam } from '../../../../lib/use-search-params';

function EditorContent({ id }: { id: string }) {
  const { role, can } = useAdmin();
  const live = useLiveAutomations(id);
  const detail = useAutomation(id, live);
  const report = useAutomationReport(id, live);
  const settings = useSettings();
  const lists = useLists();
  const tags = useAutomationTags();
  const segments = useSegments();
  const writes = useAutomationWrites();
  const [adding, setAdding] = useState(false);

  const back = (
    <Link href="/admin/automations/" className={styles.back}>
      <ArrowLeft aria-hidden="true" />
      All automations
    </Link>
  );
  if (detail.error && !detail.data)
    return (
      <div className={styles.page}>
        {back}
        <ErrorState
          title="This automation could not be loaded."
          message={detail.error.message}
          onRetry={() => void detail.mutate()}
        />
      </div>
    );
  if (detail.data === undefined) return <LoadingState label="Loading the automation…" />;
  if (detail.data === null)
    return (
      <div className={styles.page}>
        {back}
        <EmptyState title="That automation does not exist.">It may have been deleted.</EmptyState>
      </div>
    );

  const { automation: a, steps } = detail.data;
  const editable = mayEdit(role, a.status);
  const listOptions = (lists.data ?? []).map((l) => ({ id: l.id, name: l.name }));
  const tagOptions = tags.data ?? [];
  const segmentOptions = (segments.data ?? []).map((g) => ({ id: g.id, name: g.name }));
  const trigger =
    a.trigger_kind === 'list'
      ? `When someone ${a.trigger_signups_only ? 'signs up to' : 'joins'} ${listOptions.find((l) => l.id === a.trigger_list_id)?.name ?? 'a list'}${a.trigger_signups_only ? ' through the form' : ''}`
      : a.trigger_kind === 'tag'
        ? `When the tag ${tagOptions.find((t) => t.id === a.trigger_tag_id)?.name ?? '…'} is added`
        : triggerLabel('manual');
  const numbers = report.data;

  return (
    <div className={styles.page}>
      {back}
      {!editable ? (
        <StatusMessage tone="info">
          {can('write-campaigns')
            ? 'This automation is running: pause it to change it (admins and owners can edit it live).'
            : 'You can view this automation. Editors and up can change it.'}
        </StatusMessage>
      ) : null}
      <Card title={a.name}>
        <AutomationSettings
          key={a.id}
          automation={a}
          editable={editable}
          canRun={can('send-campaigns')}
          lists={listOptions}
          tags={tagOptions}
          segments={segmentOptions}
          onSave={async (changes) => {
            const r = await writes.update(a.id, changes);
            return r.ok ? null : r.message;
          }}
        />
      </Card>
      <AutomationReport
        report={numbers}
        error={report.error}
        retrying={report.isValidating}
        onRetry={() => void report.mutate()}
        steps={steps}
        status={a.status}
        tracking={{
          opens: settings.data?.track_opens ?? false,
          clicks: settings.data?.track_clicks ?? false,
        }}
        live={live}
      />
      <Card
        title="Steps"
        actions={
          editable && !adding ? (
            <Button size="sm" icon={<Plus />} onClick={() => setAdding(true)}>
              Add step
            </Button>
          ) : null
        }
      >
        {steps.length === 0 && !adding ? (
          <EmptyState title="No steps yet.">
            Add an email to send when someone is enrolled.
          </EmptyState>
        ) : (
          <StepTimeline
            trigger={trigger}
            steps={steps}
            counts={(stepId) => (numbers ? stepCounts(numbers, stepId) : null)}
            editable={editable}
            lists={listOptions}
            tags={tagOptions}
            segments={segmentOptions}
            onUpdate={async (stepId, values) => {
              const r = await writes.updateStep(stepId, values);
              return r.ok ? null : r.message;
            }}
            onDelete={async (stepId) => {
              const r = await writes.deleteStep(stepId);
              return r.ok ? null : r.message;
            }}
          />
        )}
        {adding ? (
          <StepForm
            lists={listOptions}
            tags={tagOptions}
            segments={segmentOptions}
            onCancel={() => setAdding(false)}
            onSave={async (values) => {
              const r = await writes.addStep(a.id, steps, values);
              if (r.ok) setAdding(false);
              return r.ok ? null : r.message;
            }}
          />
        ) : null}
      </Card>
    </div>
  );
}

export default function AutomationEditorPage() {
  const id = useSearchParam('id');
  return (
    <AdminLayout title="Automation">
      {!id.ready ? (
        <LoadingState label="Loading the automation…" />
      ) : id.value ? (
        <EditorContent id={id.value} />
      ) : (
        <EmptyState title="No automation chosen.">
          <Link href="/admin/automations/">See all automations</Link>
        </EmptyState>
      )}
    </AdminLayout>
  );
}
