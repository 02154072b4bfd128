// "Import CSV" (admins): a dialog to choose a file, check its preview and column mapping, pick the
// lists and whether the addresses are confirmed, then follow the upload and the import live.
import { Upload } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import {
  defaultMapping,
  IMPORT_ACCEPT,
  suggestedMapping,
  type ColumnMapping,
} from '../../../lib/admin/import-csv';
import { importProgress, type ImportExisting, type ImportOptin } from '../../../lib/admin/imports';
import { useCsvPreview, useImportLive, useStartImport } from '../../../lib/admin/use-import';
import type { ListOption } from '../../../lib/admin/use-subscribers';
import { Button, Checkbox, Dialog, LoadingState, SelectField, TextField } from '../../ui';
import { ImportPreview } from './ImportPreview';
import { ImportProgress } from './ImportProgress';
import { ImportSendProgress } from './ResendConfirmation';
import styles from './ImportExport.module.css';
import formStyles from './Subscribers.module.css';

type Errors = { file?: string; email?: string; lists?: string };

export function ImportSubscribers({
  lists,
  onShowList,
}: {
  lists: ListOption[];
  /** Shows the subscribers of one list (the table's list filter). */
  onShowList: (listId: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({ email: null, name: null });
  const [listIds, setListIds] = useState<string[]>([]);
  const [optin, setOptin] = useState<ImportOptin>('confirmed');
  const [existing, setExisting] = useState<ImportExisting>('merge');
  const [sendConfirmations, setSendConfirmations] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const preview = useCsvPreview(file);
  const { state, start, retry, reset } = useStartImport();
  const importId =
    state.phase === 'started' || state.phase === 'error' ? (state.importId ?? null) : null;
  const live = useImportLive(importId, open || importId !== null);

  const ready = preview.status === 'ready' ? preview : null;
  useEffect(() => {
    // A header of several lines is used as it names the columns (ImportPreview); a one-line header
    // starts from the suggested columns ("E-mail", "Full name"…).
    setMapping(
      !ready
        ? { email: null, name: null }
        : ready.preview.headerLines === 1
          ? suggestedMapping(ready.preview.columns)
          : defaultMapping(ready.preview.columns),
    );
  }, [ready]);

  const inForm = state.phase === 'idle' || (state.phase === 'error' && importId === null);
  const busy = state.phase === 'uploading' || state.phase === 'starting';
  const row = live.row;
  const running = importId !== null && row !== null && !importProgress(row).finished;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {};
    if (!file) next.file = 'Choose a CSV file.';
    else if (preview.status === 'error') next.file = preview.message;
    if (ready && mapping.email === null) {
      next.email = 'Choose the column that holds the email addresses.';
    }
    if (listIds.length === 0) next.lists = 'Choose at least one list.';
    setErrors(next);
    if (Object.keys(next).length > 0 || !file || !ready) return;
    await start({
      file,
      preview: ready.preview,
      mapping,
      listIds,
      optin,
      existing,
      sendConfirmations,
    });
  };

  const startOver = () => {
    reset();
    setFile(null);
    setErrors({});
  };

  const toggleList = (id: string, on: boolean) =>
    setListIds((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)));

  const fileError = errors.file ?? (preview.status === 'error' ? preview.message : null) ?? null;

  return (
    <>
      {running && !open ? (
        <span className={styles.running} aria-live="polite">
          Import {importProgress(row).percent} %
        </span>
      ) : null}
      <Button icon={<Upload />} onClick={() => setOpen(true)}>
        Import CSV
      </Button>
      <Dialog
        open={open}
        title="Import subscribers from CSV"
        onClose={() => setOpen(false)}
        busy={busy}
      >
        {inForm ? (
          <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
            <TextField
              label="CSV file"
              type="file"
              accept={IMPORT_ACCEPT}
              hint="At most 50 MB and 1,000,000 rows. The first row names the columns: one of them holds the email addresses; “name” is optional; every other column is kept as an attribute."
              error={fileError}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setErrors({});
              }}
            />
            {preview.status === 'reading' ? <LoadingState label="Reading the file…" /> : null}
            {ready && file ? (
              <ImportPreview
                file={file}
                preview={ready.preview}
                rows={ready.rows}
                mapping={mapping}
                onMapping={(next) => {
                  setMapping(next);
                  setErrors((e) => ({ ...e, email: undefined }));
                }}
                emailError={errors.email ?? null}
              />
            ) : null}
            <fieldset
              className={formStyles.fieldset}
              aria-describedby={errors.lists ? 'import-lists-error' : undefined}
            >
              <legend className={formStyles.legend}>Add them to</legend>
              {lists.map((list) => (
                <Checkbox
                  key={list.id}
                  label={list.visibility === 'private' ? `${list.name} (private)` : list.name}
                  checked={listIds.includes(list.id)}
                  onChange={(e) => toggleList(list.id, e.target.checked)}
                />
              ))}
              {errors.lists ? (
                <p id="import-lists-error" className={formStyles.formError} role="alert">
                  {errors.lists}
                </p>
              ) : null}
            </fieldset>
            <SelectField
              label="Imported addresses are"
              hint="Confirmed: they already agreed to receive your mail. Pending addresses get no campaign until they confirm; unsubscribed ones stay unsubscribed."
              value={optin}
              onChange={(e) => setOptin(e.target.value as ImportOptin)}
            >
              <option value="confirmed">Confirmed</option>
              <option value="pending">Pending (must opt in)</option>
            </SelectField>
            {optin === 'pending' ? (
              <Checkbox
                label="Send them the confirmation email"
                hint="When the import is done, at the send rate; an address that had 5 confirmation emails in the last 10 minutes is left out."
                checked={sendConfirmations}
                onChange={(e) => setSendConfirmations(e.target.checked)}
              />
            ) : null}
            <SelectField
              label="Addresses already subscribed"
              hint="Every change to an existing subscriber is recorded in their history."
              value={existing}
              onChange={(e) => setExisting(e.target.value as ImportExisting)}
            >
              <option value="merge">Merge: update names, add and update attributes</option>
              <option value="overwrite">Overwrite: update names, replace attributes</option>
              <option value="keep">Keep: leave names and attributes as they are</option>
            </SelectField>
            {state.phase === 'error' ? (
              <p className={formStyles.formError} role="alert">
                {state.message}
              </p>
            ) : null}
            <div className={styles.actions}>
              <Button onClick={() => setOpen(false)}>Cancel</Button>
              <Button type="submit" variant="primary" disabled={preview.status === 'reading'}>
                Start import
              </Button>
            </div>
          </form>
        ) : (
          <div className={styles.form}>
            <ImportProgress
              fileName={file?.name ?? 'file'}
              state={state}
              row={row}
              loadError={live.error?.message ?? null}
            />
            {row?.send_confirmations ? <ImportSendProgress importId={row.id} /> : null}
            <div className={styles.actions}>
              {state.phase === 'error' && importId && row?.status === 'queued' ? (
                <Button variant="primary" onClick={() => void retry(importId)}>
                  Start again
                </Button>
              ) : null}
              {row?.status === 'done' && row.list_ids.length > 0 ? (
                <Button
                  onClick={() => {
                    onShowList(row.list_ids[0]!);
                    setOpen(false);
                  }}
                >
                  Show the list
                </Button>
              ) : null}
              {row && importProgress(row).finished ? (
                <Button onClick={startOver}>Import another file</Button>
              ) : null}
              <Button variant="primary" onClick={() => setOpen(false)} disabled={busy}>
                {running ? 'Close (the import goes on)' : 'Close'}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}
