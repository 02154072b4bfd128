// The steps of an automation as a vertical timeline: the trigger on top, then each step with what it
// does and its counts (waiting at it, exited there, sent, failed); Edit and Delete when allowed.
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button, ConfirmDialog } from '../../ui';
import {
  stepSummary,
  type StepKind,
  type StepValues,
  type StepWithCounts,
} from '../../../lib/admin/automations';
import { formatCount } from '../../../lib/admin/format';
import styles from './Automations.module.css';
import { StepForm } from './StepForm';

export interface StepTimelineProps {
  trigger: string;
  steps: StepWithCounts[];
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
  const [deleting, setDeleting] = useState<StepWithCounts | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const names = {
    lists: new Map(lists.map((l) => [l.id, l.name])),
    tags: new Map(tags.map((t) => [t.id, t.name])),
    segments: new Map(segments.map((g) => [g.id, g.name])),
  };
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
              <span className={`${styles.counts} ${styles.muted}`}>
                <span>{formatCount(step.counts.active)} here</span>
                {step.kind === 'email' ? (
                  <>
                    <span>{formatCount(step.counts.sent)} sent</span>
                    <span>{formatCount(step.counts.failed)} failed</span>
                  </>
                ) : null}
                {step.counts.exited ? (
                  <span>{formatCount(step.counts.exited)} exited here</span>
                ) : null}
              </span>
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
        {deleting && deleting.counts.active > 0
          ? `${formatCount(deleting.counts.active)} subscribers at this step move on to the next one.`
          : 'Nobody is at this step now.'}
      </ConfirmDialog>
    </>
  );
}
