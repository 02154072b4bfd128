// "Add subscriber" (admins): a button beside the page title that opens a dialog with email, name,
// lists and the initial status; database refusals appear at their field and nothing typed is lost.
import { UserPlus } from 'lucide-react';
import { useRouter } from 'next/router';
import { useState, type FormEvent } from 'react';
import { useAddSubscriber, useListOptions } from '../../../lib/admin/use-subscribers';
import { useAdmin } from '../AdminContext';
import { Button, Checkbox, Dialog, SelectField, TextField } from '../../ui';
import styles from './Subscribers.module.css';

type FieldErrors = { email?: string; name?: string; lists?: string; form?: string };

const EMPTY = { email: '', name: '', listIds: [] as string[], status: 'confirmed' as const };

export function AddSubscriber() {
  const { can } = useAdmin();
  const router = useRouter();
  const lists = useListOptions();
  const { add, pending } = useAddSubscriber();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<{
    email: string;
    name: string;
    listIds: string[];
    status: 'confirmed' | 'pending';
  }>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});

  if (!can('manage-subscribers')) return null;

  const close = () => {
    setOpen(false);
    setErrors({});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const result = await add(form);
    if (result.ok) {
      setForm(EMPTY);
      setOpen(false);
      await router.push(`/admin/subscribers/view/?id=${encodeURIComponent(result.id)}`);
      return;
    }
    setErrors({ [result.field ?? 'form']: result.message });
  };

  const toggleList = (id: string, on: boolean) =>
    setForm((f) => ({
      ...f,
      listIds: on ? [...f.listIds, id] : f.listIds.filter((x) => x !== id),
    }));

  return (
    <>
      <Button variant="primary" icon={<UserPlus />} onClick={() => setOpen(true)}>
        Add subscriber
      </Button>
      <Dialog open={open} title="Add subscriber" onClose={close} busy={pending}>
        <form className={styles.formGrid} onSubmit={(e) => void submit(e)} noValidate>
          <TextField
            label="Email address"
            type="email"
            autoComplete="off"
            required
            value={form.email}
            error={errors.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
          />
          <TextField
            label="Name"
            optional
            value={form.name}
            error={errors.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
          <fieldset
            className={styles.fieldset}
            aria-describedby={errors.lists ? 'add-lists-error' : undefined}
          >
            <legend className={styles.legend}>Lists</legend>
            {lists.error ? (
              <p className={styles.formError}>Lists could not be loaded: {lists.error.message}</p>
            ) : null}
            {(lists.data ?? []).map((list) => (
              <Checkbox
                key={list.id}
                label={list.visibility === 'private' ? `${list.name} (private)` : list.name}
                checked={form.listIds.includes(list.id)}
                onChange={(e) => toggleList(list.id, e.target.checked)}
              />
            ))}
            {errors.lists ? (
              <p id="add-lists-error" className={styles.formError} role="alert">
                {errors.lists}
              </p>
            ) : null}
          </fieldset>
          <SelectField
            label="Subscription status"
            hint="Pending subscribers are not sent to until they confirm."
            value={form.status}
            onChange={(e) =>
              setForm({ ...form, status: e.target.value as 'confirmed' | 'pending' })
            }
          >
            <option value="confirmed">Confirmed</option>
            <option value="pending">Pending</option>
          </SelectField>
          {errors.form ? (
            <p className={styles.formError} role="alert">
              {errors.form}
            </p>
          ) : null}
          <div className={styles.dialogActions}>
            <Button onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" loading={pending}>
              Add subscriber
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
