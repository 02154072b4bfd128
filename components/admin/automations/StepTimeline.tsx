// The steps of an automation as a vertical timeline: the trigger on top, then each step with what it
// does and its counts (waiting at it, exited there, sent, failed; once the report has answered);
// Edit and Delete when allowed.
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button, ConfirmDialog } from '../../ui';
import {
  stepSummary,
  type StepKind,
  type StepRow,
  type StepValues,
} from '../../../lib/admin/automations';
import type { StepCounts } from '../../../lib/admin/automation-report';
import { formatCount } from '../../../lib/admin/format';
import styles from './Automations.module.css';
import { StepForm } from './StepForm';

export interface StepTimelineProps {
  trigger: string;
  steps: StepRow[];
  /** A step's numbers, or null while the report loads (or failed: the report card says so). */
  counts: (stepId: string) => StepCounts | null;
  editable: boolean;
  lists: { id: string; name: string }[];
  tags: { id: string; name: string }[];
  segments: { id: string; name: string }[];
  onUpdate: (id: string, values: StepValues & { kind: StepKind }) => Promise<string | null>;
  onDelete: (id: string) => Promise<string | null>;
}

export function StepTimeline(props: StepTimelineProps) {
  const { trigger, steps, editable, lists, tags, segments } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<StepRow | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const names = {
    lists: new Map(lists.map((l) => [l.id, l.name])),
    tags: new Map(tags.map((t) => [t.id, t.name])),
    segments: new Map(segments.map((g) => [g.id, g.name])),
  };
  const deletingHere = deleting ? (props.counts(deleting.id)?.active ?? 0) : 0;
  return (
    <>
      <ol className={styles.timeline} aria-label="Steps">
        <li className={`${styles.step} ${styles.trigger}`}>
          <span className={styles.marker} aria-hidden="true">
            ▶
          </span>
          <div className={styles.body}>
            <span className={styles.summary}>{trigger}</span>
          </div>
        </li>
        {steps.map((step, i) => (
          <li key={step.id} className={styles.step}>
            <span className={styles.marker} aria-hidden="true">
              {i + 1}
            </span>
            <div className={styles.body}>
              <span className={styles.summary}>
                <span className="visually-hidden">Step {i + 1}: </span>
                {stepSummary(step, names)}
              </span>
              <StepLine kind={step.kind} counts={props.counts(step.id)} />
              {editing === step.id ? (
                <StepForm
                  step={step}
                  lists={lists}
                  tags={tags}
                  segments={segments}
                  onCancel={() => setEditing(null)}
                  onSave={async (values) => {
                    const failure = await props.onUpdate(step.id, values);
                    if (!failure) setEditing(null);
                    return failure;
                  }}
                />
              ) : editable ? (
                <div className={styles.actions}>
                  <Button size="sm" icon={<Pencil />} onClick={() => setEditing(step.id)}>
                    Edit<span className="visually-hidden"> step {i + 1}</span>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Trash2 />}
                    onClick={() => setDeleting(step)}
                  >
                    Delete<span className="visually-hidden"> step {i + 1}</span>
                  </Button>
                </div>
              ) : null}
            </div>
          </li>
        ))}
      </ol>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this step?"
        confirmLabel="Delete step"
        error={deleteError}
        onCancel={() => {
          setDeleting(null);
          setDeleteError(null);
        }}
        onConfirm={() => {
          void props.onDelete(deleting!.id).then((failure) => {
            setDeleteError(failure);
            if (!failure) setDeleting(null);
          });
        }}
      >
        {deletingHere > 0
          ? `${formatCount(deletingHere)} subscribers at this step move on to the next one.`
          : 'Nobody is at this step now.'}
      </ConfirmDialog>
    </>
  );
}

function StepLine({ kind, counts }: { kind: string; counts: StepCounts | null }) {
  if (!counts) return null;
  return (
    <span className={`${styles.counts} ${styles.muted}`}>
      <span>{formatCount(counts.active)} here</span>
      {kind === 'email' ? (
        <>
          <span>{formatCount(counts.sent)} sent</span>
          {counts.failed ? <span>{formatCount(counts.failed)} failed</span> : null}
        </>
      ) : null}
      {counts.exited ? <span>{formatCount(counts.exited)} exited here</span> : null}
    </span>
  );
}
