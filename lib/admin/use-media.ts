// Hooks of the media library: the images of the media bucket (also the editor's image picker),
// and delete / upload wrappers that refresh the list afterwards.
import { useCallback } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { deleteMedia, listMedia, MEDIA_FOLDER, type MediaItem } from './media';
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

/** Upload into the library folder; answers the object path (or null with `error` set). */
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

export function useMediaDelete() {
  return useCallback(async (path: string) => {
    const result = await deleteMedia(supabase, path);
    if (result.ok) await revalidateMedia().catch(() => undefined);
    return result;
  }, []);
}
