// Image uploads to the public `media` bucket (SPEC §5): the checks made before sending, the object
// path, and the upload itself (the bucket enforces the same type and size limits).
import type { SupabaseClient } from '@supabase/supabase-js';
import { toQueryError } from '../use-query';

export const MEDIA_BUCKET = 'media';
/** SPEC §5: at most 5 MB (the bucket's file_size_limit is 5242880 bytes). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** For `<input type="file" accept>`. */
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

export interface FileLike {
  name: string;
  size: number;
  type: string;
}

/** Null when the file may be uploaded, else the message to show at the file field. */
export function checkImage(file: FileLike): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'Choose a PNG, JPEG, WebP or GIF image.';
  }
  if (file.size > MAX_IMAGE_BYTES) return 'Choose an image of at most 5 MB.';
  if (file.size === 0) return 'That file is empty.';
  return null;
}

/**
 * `logo/1763820000000-my-logo.png`: a folder, the time (so a new upload never overwrites an image
 * an old email still shows) and the file name reduced to safe characters.
 */
export function mediaPath(folder: string, fileName: string, now: number = Date.now()): string {
  const name = fileName.split(/[\\/]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const hasExtension = /^[a-z0-9]{1,5}$/.test(extension);
  const base = (hasExtension ? name.slice(0, dot) : name)
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${folder}/${now}-${base || 'image'}${hasExtension ? `.${extension}` : ''}`;
}

/** The `src` the image loader takes for an object of the media bucket: `media/<path>`. */
export function mediaSrc(path: string): string {
  return `${MEDIA_BUCKET}/${path}`;
}

/** Uploads after checking; answers the object path, or throws a QueryError with storage's message. */
export async function uploadImage(
  client: SupabaseClient,
  folder: string,
  file: File,
): Promise<string> {
  const problem = checkImage(file);
  if (problem) throw toQueryError({ message: problem, code: 'invalid_input' });
  const path = mediaPath(folder, file.name);
  const { data, error } = await client.storage
    .from(MEDIA_BUCKET)
    .upload(path, file, { contentType: file.type, upsert: false });
  if (error) throw toQueryError(error);
  return data.path;
}
