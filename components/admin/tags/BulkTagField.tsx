// The tag field of the subscribers page's bulk "Add a tag" / "Remove a tag": free text with the
// existing tags offered as suggestions (a new name is created when added).
import { useId } from 'react';
import { useTags } from '../../../lib/admin/use-tags';
import { TextField } from '../../ui';

export function BulkTagField({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const tags = useTags();
  const listId = useId();
  return (
    <>
      <TextField
        label="Tag"
        placeholder="Tag name"
        value={value}
        maxLength={64}
        list={listId}
        autoComplete="off"
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={listId}>
        {(tags.data ?? []).map((t) => (
          <option key={t.id} value={t.name} />
        ))}
      </datalist>
    </>
  );
}
