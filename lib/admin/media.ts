// The media library (the public `media` bucket, SPEC §3): every image in it with its public URL,
// newest first, and deletion. Takes the client so hooks pass the browser's and tests a member's.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../database.types';
import { toQueryError, type SupabaseResult } from '../use-query';
import { MEDIA_BUCKET } from './media-upload';

type Client = SupabaseClient<Database>;

export interface MediaItem {
  /** Object path inside the bucket, e.g. `uploads/1763820000000-hero.png`. */
  path: string;
  /** The file name as uploaded (the time prefix mediaPath() adds is left out). */
  name: string;
  /** Bytes; 0 when storage did not record a size. */
  size: number;
  /** ISO time of the upload. */
  createdAt: string;
  /** Absolute public URL (what "Copy URL" copies and emails may embed). */
  publicUrl: string;
}

/** Folder the media page uploads into (the logo lives in `logo/`; every folder is listed). */
export const MEDIA_FOLDER = 'uploads';

// storage.list() reads one folder level and at most this many entries per call.
const PAGE = 1000;

interface StorageEntry {
  name: string;
  id: string | null;
  created_at: string | null;
  metadata: Record<string, unknown> | null;
}

/** `1763820000000-hero.png` → `hero.png`; other names unchanged. */
export function displayName(fileName: string): string {
  return fileName.replace(/^\d{10,}-/, '') || fileName;
}

async function listFolder(client: Client, prefix: string): Promise<StorageEntry[]> {
  const entries: StorageEntry[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { data, error } = await client.storage
      .from(MEDIA_BUCKET)
      .list(prefix, { limit: PAGE, offset, sortBy: { column: 'name', order: 'asc' } });
    if (error) throw error;
    entries.push(...(data as StorageEntry[]));
    if (data.length < PAGE) return entries;
  }
}

function toItem(client: Client, path: string, entry: StorageEntry): MediaItem {
  const size = entry.metadata?.size;
  return {
    path,
    name: displayName(entry.name),
    size: typeof size === 'number' ? size : Number(size ?? 0) || 0,
    createdAt: entry.created_at ?? new Date(0).toISOString(),
    publicUrl: client.storage.from(MEDIA_BUCKET).getPublicUrl(path).data.publicUrl,
  };
}

/**
 * Every image the caller may list (members: RLS "Members can list media"), in the bucket's root
 * and its folders one level down (uploads are `<folder>/<time>-<name>`), newest first.
 */
export async function listMedia(client: Client): Promise<SupabaseResult<MediaItem[]>> {
  try {
    const root = await listFolder(client, '');
    const items: MediaItem[] = [];
    const folders: string[] = [];
    for (const entry of root) {
      if (entry.id === null) folders.push(entry.name);
      else items.push(toItem(client, entry.name, entry));
    }
    const nested = await Promise.all(folders.map((folder) => listFolder(client, folder)));
    nested.forEach((entries, i) => {
      for (const entry of entries) {
        // Deeper folders are not made by Postbox; their files are left out rather than walked.
        if (entry.id !== null) items.push(toItem(client, `${folders[i]}/${entry.name}`, entry));
      }
    });
    items.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.path.localeCompare(b.path));
    return { data: items, error: null };
  } catch (error) {
    return { data: null, error };
  }
}

/** Deletes one image (admins and owners only: RLS "Admins delete media"). */
export async function deleteMedia(
  client: Client,
  path: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { data, error } = await client.storage.from(MEDIA_BUCKET).remove([path]);
  if (error) return { ok: false, message: toQueryError(error).message };
  // A refused or already-gone delete answers no error and no removed object.
  if (!data?.length) {
    return {
      ok: false,
      message: 'This image could not be deleted: it is already gone, or you may not delete media.',
    };
  }
  return { ok: true };
}
