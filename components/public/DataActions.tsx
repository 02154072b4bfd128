// "Your data" on the preferences page: download everything held on the address as a JSON file,
// and delete it after an explicit confirmation step.
import { CircleAlert, Download, LoaderCircle, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { FunctionFailure, FunctionOutcome } from '../../lib/functions';
import { exportFileName, exportFileText } from '../../lib/preferences';
import styles from './Public.module.css';
import prefs from './Preferences.module.css';

/** Saves `text` as a file through a temporary object URL (a static site has no download route). */
function downloadJson(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Let the browser start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function DataActions({
  exportData,
  deleteData,
  onDeleted,
}: {
  exportData: () => Promise<FunctionOutcome<{ data: Record<string, unknown> }>>;
  deleteData: () => Promise<FunctionOutcome<{ deleted: true }>>;
  onDeleted: () => void;
}) {
  const [busy, setBusy] = useState<'export' | 'delete' | null>(null);
  const [exportFailure, setExportFailure] = useState<FunctionFailure | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<FunctionFailure | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [exported, setExported] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // Land on the safe choice when the confirmation opens.
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  async function onExport() {
    setBusy('export');
    setExportFailure(null);
    setExported(false);
    const outcome = await exportData();
    setBusy(null);
    if (!outcome.ok) return setExportFailure(outcome);
    downloadJson(exportFileText(outcome.data.data), exportFileName());
    setExported(true);
  }

  async function onDelete() {
    setBusy('delete');
    setDeleteFailure(null);
    const outcome = await deleteData();
    setBusy(null);
    if (!outcome.ok) return setDeleteFailure(outcome);
    onDeleted();
  }

  return (
    <section className={styles.card} aria-labelledby="data-heading">
      <div>
        <h2 id="data-heading" className={styles.sectionTitle}>
          Your data
        </h2>
        <p className={styles.sectionText}>
          Download a copy of everything we hold on this address, or delete it for good.
        </p>
      </div>
      <div className={prefs.dataActions}>
        <button
          type="button"
          className={styles.secondaryButton}
          onClick={() => void onExport()}
          disabled={busy !== null}
          aria-busy={busy === 'export'}
          aria-describedby={exportFailure ? 'export-error' : undefined}
        >
          {busy === 'export' ? (
            <LoaderCircle className={styles.spinner} aria-hidden="true" />
          ) : (
            <Download aria-hidden="true" />
          )}
          Download my data
        </button>
        {!confirming && (
          <button
            type="button"
            className={styles.dangerButton}
            onClick={() => setConfirming(true)}
            disabled={busy !== null}
          >
            <Trash2 aria-hidden="true" />
            Delete my data
          </button>
        )}
      </div>
      <p className={styles.notice} role="status">
        {exported ? 'Your data was downloaded as a JSON file.' : ''}
      </p>
      {exportFailure && (
        <p id="export-error" className={styles.fieldError} role="alert">
          <CircleAlert aria-hidden="true" />
          {exportFailure.message}
        </p>
      )}
      {confirming && (
        <div className={prefs.confirmBox} role="group" aria-labelledby="delete-title">
          <p id="delete-title" className={prefs.confirmTitle}>
            Delete everything?
          </p>
          <p>
            This removes your address, name, subscriptions and history at once. You will get no more
            emails, and this cannot be undone.
          </p>
          <div className={prefs.dataActions}>
            <button
              ref={cancelRef}
              type="button"
              className={styles.secondaryButton}
              onClick={() => {
                setConfirming(false);
                setDeleteFailure(null);
              }}
              disabled={busy !== null}
            >
              Keep my data
            </button>
            <button
              type="button"
              className={styles.dangerButton}
              onClick={() => void onDelete()}
              disabled={busy !== null}
              aria-busy={busy === 'delete'}
              aria-describedby={deleteFailure ? 'delete-error' : undefined}
            >
              {busy === 'delete' ? (
                <LoaderCircle className={styles.spinner} aria-hidden="true" />
              ) : (
                <Trash2 aria-hidden="true" />
              )}
              Yes, delete my data
            </button>
          </div>
          {deleteFailure && (
            <p id="delete-error" className={styles.fieldError} role="alert">
              <CircleAlert aria-hidden="true" />
              {deleteFailure.message}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
