// Value controls of the segment rule editor: a date as "the last n days" or a calendar date, and
// a whole number of at least 0.
import type { RuleDate } from '../../../lib/admin/subscriber-rules';
import { SelectField, TextField } from '../../ui';

export function DateValue({
  label,
  value,
  onChange,
}: {
  label: string;
  value: RuleDate;
  onChange: (value: RuleDate) => void;
}) {
  const relative = typeof value === 'object';
  return (
    <>
      <SelectField
        label={`${label}: as`}
        value={relative ? 'days' : 'date'}
        onChange={(e) =>
          onChange(
            e.target.value === 'days' ? { days_ago: 30 } : new Date().toISOString().slice(0, 10),
          )
        }
      >
        <option value="days">the last n days</option>
        <option value="date">a date</option>
      </SelectField>
      {relative ? (
        <TextField
          label="Days"
          type="number"
          min={0}
          max={99999}
          value={String(value.days_ago)}
          onChange={(e) =>
            onChange({ days_ago: Math.max(0, Math.floor(Number(e.target.value) || 0)) })
          }
        />
      ) : (
        <TextField
          label="Date"
          type="date"
          value={value.slice(0, 10)}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </>
  );
}

export function NumberValue({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (n: number) => void;
}) {
  return (
    <TextField
      label={label}
      type="number"
      min={0}
      value={String(value)}
      onChange={(e) => onChange(Math.max(0, Math.floor(Number(e.target.value) || 0)))}
    />
  );
}
