// Writes the subscribers matching an admin's filters to the private `exports` bucket as CSV
// (SPEC §7): pages of 5,000 come from SQL as ready CSV lines and are streamed into one upload,
// so neither side holds the whole export in memory.
import { adminClient, rpc } from './db.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';

export interface ExportFilters {
  list?: string;
  status?: 'pending' | 'confirmed' | 'unsubscribed';
  subscriber_status?: 'enabled' | 'blocklisted';
  search?: string;
}

export const EXPORT_HEADER = 'email,name,status,lists,created_at,attributes\r\n';
const PAGE_ROWS = 5_000;

type Page = { csv: string; last_id: string | null; row_count: number };

/** Streams every matching subscriber to `exports/<path>`; returns how many rows were written. */
export async function writeExport(path: string, filters: ExportFilters): Promise<number> {
  const encoder = new TextEncoder();
  let after: string | null = null;
  let rows = 0;
  let failure: unknown = null;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(EXPORT_HEADER));
    },
    // Pulled only as fast as the upload reads, so at most a page or two is in memory.
    async pull(controller) {
      try {
        const pages = await rpc<Page[]>('export_subscribers_page', {
          p_list: filters.list ?? null,
          p_status: filters.status ?? null,
          p_subscriber_status: filters.subscriber_status ?? null,
          p_search: filters.search ?? null,
          p_after: after,
          p_limit: PAGE_ROWS,
        });
        const page = pages[0];
        if (!page || page.row_count === 0) {
          controller.close();
          return;
        }
        rows += page.row_count;
        after = page.last_id;
        controller.enqueue(encoder.encode(page.csv));
        if (page.row_count < PAGE_ROWS) controller.close();
      } catch (error) {
        failure = error;
        controller.error(error);
      }
    },
  });
  const key = path.split('/').map(encodeURIComponent).join('/');
  let response: Response;
  try {
    response = await fetch(`${env.supabaseUrl}/storage/v1/object/exports/${key}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${env.serviceRoleKey()}`,
        apikey: env.serviceRoleKey(),
        'Content-Type': 'text/csv',
        'x-upsert': 'false',
      },
      body,
      // @ts-ignore: Deno needs duplex for a streamed request body; the DOM typings lack it.
      duplex: 'half',
    });
  } catch (error) {
    if (failure) throw failure;
    throw error;
  }
  if (failure) throw failure;
  if (!response.ok) {
    const text = await response.text();
    console.error('export upload failed', response.status, text);
    if (/maximum allowed size|too large|exceeded/i.test(text)) {
      throw new AppError(
        'payload_too_large',
        'The export is larger than the storage upload limit.',
      );
    }
    throw new AppError('internal');
  }
  await response.body?.cancel();
  return rows;
}

/** A link to the file that works for `seconds`, without signing in. */
export async function signedExportUrl(path: string, seconds: number): Promise<string> {
  const { data, error } = await adminClient()
    .storage.from('exports')
    .createSignedUrl(path, seconds, { download: 'subscribers.csv' });
  if (error || !data) {
    console.error('signing the export failed', error);
    throw new AppError('internal');
  }
  return data.signedUrl;
}
