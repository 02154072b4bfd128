// Hook for one image upload to the media bucket: checks the file first, reports progress and the
// error to show at the file field, and answers the object path.
import { useCallback, useState } from 'react';
import { supabase } from '../supabase';
import { toQueryError } from '../use-query';
import { uploadImage } from './media-upload';

export function useMediaUpload(folder: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const upload = useCallback(
    async (file: File): Promise<string | null> => {
      setPending(true);
      setError(null);
      try {
        return await uploadImage(supabase, folder, file);
      } catch (err) {
        setError(toQueryError(err).message);
        return null;
      } finally {
        setPending(false);
      }
    },
    [folder],
  );
  const reset = useCallback(() => setError(null), []);
  return { upload, pending, error, reset };
}
