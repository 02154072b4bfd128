// export-subscribers (SPEC §6, §7): an admin or owner exports the subscribers matching rules as
// CSV to the private `exports` bucket and gets a signed URL that expires (1 hour by default).
// With `progress` (a UUID the page listens on), the rows written so far are broadcast meanwhile.
import { AppError, invalidInput } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { requireAdmin } from '../_shared/import-auth.ts';
import { signedExportUrl, writeExport } from '../_shared/export-csv.ts';
import { exportProgress } from '../_shared/export-progress.ts';
import { isUuid } from '../../../lib/uuid.ts';
import { exportRules } from './input.ts';

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
  // The shape and an unknown list are refused before the upload starts; the database refuses bad
  // fields or values with the first page, which fails the upload and so leaves no file behind.
  const rules = await exportRules(body);
  const progress = parseProgress(body.progress);
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '').trim();
  const seconds = Number(Deno.env.get('POSTBOX_EXPORT_URL_SECONDS') ?? 3600);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = `${caller.id}/subscribers-${stamp}-${crypto.randomUUID().slice(0, 8)}.csv`;
  const report = exportProgress(progress);
  const rows = await writeExport(path, rules, { token }, report);
  // The page hears the pages' progress before the answer that ends the export (at most 2 s more).
  await report.settle(2000);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new AppError('internal');
  const url = await signedExportUrl(path, seconds);
  return json({ url, rows, path, expires_in: seconds });
});
