// export-subscribers (SPEC §6, §7): an admin or owner exports the subscribers matching filters as
// CSV to the private `exports` bucket and gets a signed URL that expires (1 hour by default).
// With `progress` (a UUID the page listens on), the rows written so far are broadcast meanwhile.
import { adminClient } from '../_shared/db.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { requireAdmin } from '../_shared/import-auth.ts';
import { signedExportUrl, writeExport, type ExportFilters } from '../_shared/export-csv.ts';
import { exportProgress } from '../_shared/export-progress.ts';
import { isUuid } from '../../../lib/uuid.ts';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const STATUSES = ['pending', 'confirmed', 'unsubscribed'];
const SUBSCRIBER_STATUSES = ['enabled', 'blocklisted'];

function parseFilters(value: unknown): ExportFilters {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidInput('filters', 'must be an object');
  const raw = value as Record<string, unknown>;
  const filters: ExportFilters = {};
  for (const key of Object.keys(raw)) {
    if (!['list', 'status', 'subscriber_status', 'search'].includes(key)) {
      throw invalidInput(`filters.${key}`, 'is not a known filter');
    }
  }
  if (raw.list !== undefined) {
    if (typeof raw.list !== 'string' || raw.list.length > 48 || !SLUG.test(raw.list))
      throw invalidInput('filters.list', 'must be a list slug');
    filters.list = raw.list;
  }
  if (raw.status !== undefined) {
    if (typeof raw.status !== 'string' || !STATUSES.includes(raw.status))
      throw invalidInput('filters.status', 'must be pending, confirmed or unsubscribed');
    filters.status = raw.status as ExportFilters['status'];
  }
  if (raw.subscriber_status !== undefined) {
    if (
      typeof raw.subscriber_status !== 'string' ||
      !SUBSCRIBER_STATUSES.includes(raw.subscriber_status)
    )
      throw invalidInput('filters.subscriber_status', 'must be enabled or blocklisted');
    filters.subscriber_status = raw.subscriber_status as ExportFilters['subscriber_status'];
  }
  if (raw.search !== undefined) {
    if (typeof raw.search !== 'string' || raw.search.length > 200)
      throw invalidInput('filters.search', 'must be text of at most 200 characters');
    if (raw.search.trim()) filters.search = raw.search.trim();
  }
  return filters;
}

/** The page's progress topic id (export-progress.ts): a UUID, or none. */
function parseProgress(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!isUuid(value)) throw invalidInput('progress', 'must be a UUID');
  // As given: Realtime matches topics exactly, and the page listens on the id it chose.
  return value;
}

serve(['POST'], async (req) => {
  const caller = await requireAdmin(req);
  const body = await readJsonObject(req);
  const filters = parseFilters(body.filters);
  const progress = parseProgress(body.progress);
  // Checked before the upload starts, so an unknown list leaves no half-written file behind.
  if (filters.list) {
    const { data, error } = await adminClient()
      .from('lists')
      .select('id')
      .eq('slug', filters.list)
      .maybeSingle();
    if (error) throw new AppError('internal');
    if (!data) throw new AppError('list_not_found');
  }
  const seconds = Number(Deno.env.get('POSTBOX_EXPORT_URL_SECONDS') ?? 3600);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = `${caller.id}/subscribers-${stamp}-${crypto.randomUUID().slice(0, 8)}.csv`;
  const rows = await writeExport(path, filters, exportProgress(progress));
  if (!Number.isFinite(seconds) || seconds <= 0) throw new AppError('internal');
  const url = await signedExportUrl(path, seconds);
  return json({ url, rows, path, expires_in: seconds });
});
