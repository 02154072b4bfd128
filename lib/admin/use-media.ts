// Hooks of the media library: the images of the media bucket (also the editor's image picker),
// and delete / upload wrappers that refresh the list afterwards.
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from '../config';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery } from '../use-query';
import { deleteMedia, listMedia, MEDIA_FOLDER, type MediaItem } from './media';
import { checkImage, MEDIA_BUCKET, mediaPath } from './media-upload';
import { uploadWithProgress } from './upload-progress';
import { useMediaUpload } from './use-media-upload';

export type { MediaItem };

export const MEDIA_KEY = queryKey('admin/media');

export function revalidateMedia(): Promise<unknown> {
  return mutate(MEDIA_KEY);
}

/** `{ data: MediaItem[] | null, error, isLoading, mutate }`, newest first. */
export function useMedia() {
  return useQuery(MEDIA_KEY, () => listMedia(supabase));
}

/** Upload one image into the library folder; answers the object path (or null with `error` set). */
export function useMediaLibraryUpload(folder: string = MEDIA_FOLDER) {
  const { upload, ...state } = useMediaUpload(folder);
  const uploadAndRefresh = useCallback(
    async (file: File) => {
      const path = await upload(file);
      if (path) await revalidateMedia().catch(() => undefined);
      return path;
    },
    [upload],
  );
  return { ...state, upload: uploadAndRefresh };
}

export interface UploadProgress {
  /** 1-based index of the file being sent, and how many were chosen. */
  file: number;
  files: number;
  name: string;
  /** 0 to 1 of the current file. */
  fraction: number;
}

export interface UploadResult {
  uploaded: string[];
  /** One line per file that was refused or failed: "name: reason". */
  errors: string[];
}

/**
 * Uploads images into the library folder one after another with progress (the same checks and
 * path as useMediaUpload; XMLHttpRequest because supabase-js reports no progress), then refreshes.
 */
export function useMediaBatchUpload(folder: string = MEDIA_FOLDER) {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useCallback(
    async (files: File[]): Promise<UploadResult> => {
      const result: UploadResult = { uploaded: [], errors: [] };
      const { data } = await supabase.auth.getSession();
      const token = data.session?.access_token;
      for (const [i, file] of files.entries()) {
        const problem = checkImage(file);
        if (problem) {
          result.errors.push(`${file.name}: ${problem}`);
          continue;
        }
        if (!token) {
          result.errors.push(`${file.name}: Sign in to continue.`);
          continue;
        }
        setProgress({ file: i + 1, files: files.length, name: file.name, fraction: 0 });
        try {
          const path = await uploadWithProgress({
            supabaseUrl: SUPABASE_URL,
            apiKey: SUPABASE_PUBLISHABLE_KEY,
            accessToken: token,
            bucket: MEDIA_BUCKET,
            path: mediaPath(folder, file.name),
            body: file,
            contentType: file.type,
            onProgress: (fraction) =>
              setProgress({ file: i + 1, files: files.length, name: file.name, fraction }),
          });
          result.uploaded.push(path);
        } catch (error) {
          result.errors.push(`${file.name}: ${toQueryError(error).message}`);
        }
      }
      setProgress(null);
      if (result.uploaded.length) await revalidateMedia().catch(() => undefined);
      return result;
    },
    [folder],
  );
  return { upload, progress, pending: progress !== null };
}

export function useMediaDelete() {
  return useCallback(async (path: string) => {
    const result = await deleteMedia(supabase, path);
    if (result.ok) await revalidateMedia().catch(() => undefined);
    return result;
  }, []);
}
