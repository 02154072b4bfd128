// The delete-with-confirmation flow of the admin pages: which row is being asked about, the write
// in progress, and the error to show in the dialog; a success closes it and reports the row.
import { useCallback, useState } from 'react';

export type DeleteResult = { ok: true } | { ok: false; message: string };

export function useConfirmedDelete<T>(
  remove: (item: T) => Promise<DeleteResult>,
  onDeleted: (item: T) => void,
) {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const ask = useCallback((item: T) => {
    setError(null);
    setTarget(item);
  }, []);
  const cancel = useCallback(() => setTarget(null), []);
  const confirm = useCallback(async () => {
    if (target === null) return;
    setBusy(true);
    setError(null);
    const result = await remove(target);
    setBusy(false);
    if (result.ok) {
      setTarget(null);
      onDeleted(target);
    } else {
      setError(result.message);
    }
  }, [target, remove, onDeleted]);

  return { target, busy, error, ask, cancel, confirm };
}
