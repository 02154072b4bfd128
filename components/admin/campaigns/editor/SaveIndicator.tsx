// The editor's save state as words and an icon (announced politely), with a Save button that
// saves at once; autosave does the same a moment after typing stops. A new campaign says it is not
// saved yet: it becomes a draft at its first save.
import { CircleAlert, CircleCheck, CircleDashed, LoaderCircle, Save } from 'lucide-react';
import type { SaveState } from '../../../../lib/admin/use-campaign-editor-draft';
import { Button } from '../../../ui';
import styles from './Editor.module.css';

const time = (date: Date) => date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export function SaveIndicator({
  state,
  savedAt,
  onSave,
  notCreated = false,
}: {
  state: SaveState;
  savedAt: Date | null;
  onSave: () => Promise<boolean>;
  notCreated?: boolean;
}) {
  let icon;
  let text;
  switch (state) {
    case 'saving':
      icon = <LoaderCircle className={styles.spin} />;
      text = 'Saving…';
      break;
    case 'unsaved':
      icon = <CircleDashed />;
      text = 'Unsaved changes';
      break;
    case 'error':
      icon = <CircleAlert />;
      text = 'Not saved — see the message below';
      break;
    default:
      icon = notCreated ? <CircleDashed /> : <CircleCheck />;
      if (notCreated) text = 'Not saved yet';
      else text = savedAt ? `Saved at ${time(savedAt)}` : 'All changes saved';
  }
  return (
    <>
      <span className={`${styles.saveState} ${styles[`save-${state}`] ?? ''}`} role="status">
        <span aria-hidden="true">{icon}</span>
        {text}
      </span>
      <Button
        size="sm"
        variant={state === 'saved' && !notCreated ? 'ghost' : 'primary'}
        icon={<Save />}
        loading={state === 'saving'}
        aria-keyshortcuts="Control+S Meta+S"
        onClick={() => void onSave()}
      >
        {notCreated ? 'Save draft' : 'Save'}
      </Button>
    </>
  );
}
