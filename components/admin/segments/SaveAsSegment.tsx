// "Save as segment" on the subscribers page (issue 24): names the current filter's rules and saves
// them as a segment (admins and owners), then links to it.
import { Bookmark } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { plainMessage, segmentNameProblem } from '../../../lib/admin/segments';
import type { RuleGroup } from '../../../lib/admin/subscriber-rules';
import { useSegmentWrite } from '../../../lib/admin/use-segments';
import { Button, Dialog, StatusMessage, TextField } from '../../ui';

export function SaveAsSegment({ rules, disabled }: { rules: RuleGroup; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ id: string; name: string } | null>(null);
  const write = useSegmentWrite();

  const save = async () => {
    const found = segmentNameProblem(name);
    setProblem(found);
    if (found) return;
    const id = await write.save({ name, rules });
    if (id) {
      setSaved({ id, name: name.trim() });
      setOpen(false);
      setName('');
    }
  };

  return (
    <>
      <Button icon={<Bookmark />} disabled={disabled} onClick={() => setOpen(true)}>
        Save as segment
      </Button>
      {saved ? (
        <StatusMessage tone="success">
          Saved as segment{' '}
          <Link href={`/admin/subscribers/segments/edit/?id=${saved.id}`}>{saved.name}</Link>.
        </StatusMessage>
      ) : null}
      <Dialog
        open={open}
        title="Save the filter as a segment"
        busy={write.pending}
        onClose={() => setOpen(false)}
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="primary" loading={write.pending} onClick={() => void save()}>
              Save segment
            </Button>
          </>
        }
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <TextField
            label="Name"
            value={name}
            maxLength={100}
            autoFocus
            error={problem ?? (write.error ? plainMessage(write.error.message) : null)}
            onChange={(e) => {
              setName(e.target.value);
              setProblem(null);
            }}
          />
        </form>
        <p>The segment keeps these conditions and matches whoever fits them at the time.</p>
      </Dialog>
    </>
  );
}
