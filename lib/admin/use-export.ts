// Hook of the "Export CSV" button: runs export-subscribers for the page's current filters and
// keeps the answer (the signed URL and the row count) or the error to show beside the button.
import { useCallback, useState } from 'react';
import { supabase } from '../supabase';
import { toQueryError } from '../use-query';
import { exportSubscribers, type ExportFilters, type ExportResult } from './export';

export type ExportState =
  | { status: 'idle' }
  | { status: 'pending' }
  | { status: 'ready'; result: ExportResult }
  | { status: 'error'; message: string };

export function useExportSubscribers() {
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  const run = useCallback(async (filters: () => ExportFilters): Promise<ExportResult | null> => {
    setState({ status: 'pending' });
    try {
      const result = await exportSubscribers(supabase, filters());
      setState({ status: 'ready', result });
      return result;
    } catch (error) {
      setState({ status: 'error', message: toQueryError(error).message });
      return null;
    }
  }, []);
  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, run, reset };
}
