// import-subscribers (SPEC §5, §7, §9): an admin starts or resumes a queued CSV import; the work
// runs after the 202 answer (EdgeRuntime.waitUntil), one run at a time per import (a lease), and a
// run that spends its budget hands on to a fresh invocation of this function with the service key.
import { adminClient, isServiceRole, rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { requireAdmin } from '../_shared/import-auth.ts';
import {
  importSettings,
  runImport,
  type ImportRecord,
  type RunOptions,
} from '../_shared/import-run.ts';
import { isUuid } from '../../../lib/uuid.ts';

type EdgeRuntimeGlobal = { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } };

function inBackground(work: Promise<unknown>): void {
  const guarded = work.catch((error) =>
    console.error('import-subscribers background work failed', error),
  );
  (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil(guarded);
}

/** Starts the next run as a new request, so it gets its own CPU allowance. */
function continueImport(importId: string): Promise<unknown> {
  return fetch(env.functionUrl('import-subscribers'), {
    method: 'POST',
    headers: env.serviceHeaders({ 'Content-Type': 'application/json' }),
    body: JSON.stringify({ import_id: importId }),
  }).then((response) => response.text());
}

async function run(imp: ImportRecord, token: string, options: RunOptions): Promise<void> {
  const outcome = await runImport(imp, token, options);
  if (outcome === 'more') await continueImport(imp.id);
}

serve(['POST'], async (req) => {
  if (!(await isServiceRole(req))) await requireAdmin(req);
  const body = await readJsonObject(req);
  const importId = body.import_id;
  if (!isUuid(importId)) {
    throw invalidInput('import_id', 'must be the id of an import');
  }
  // Fault injection for the resume tests only: never honoured unless the environment allows it.
  const options: RunOptions = {};
  if (
    Deno.env.get('POSTBOX_IMPORT_TEST_HOOKS') === 'on' &&
    typeof body.crash_after_batches === 'number'
  ) {
    options.crashAfterBatches = body.crash_after_batches;
  }
  const { data, error } = await adminClient()
    .from('imports')
    .select('*')
    .eq('id', importId)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (!data) throw new AppError('not_found', 'That import does not exist.');
  if (data.status === 'done' || data.status === 'failed') return json({ import: data }, 202);

  const token = crypto.randomUUID();
  const claimed = await rpc<ImportRecord | null>('claim_import', {
    p_import_id: importId,
    p_token: token,
    p_lease_seconds: importSettings.leaseSeconds(),
  });
  // Another run holds the import: it goes on, and this answer shows where it is.
  if (!claimed?.id) return json({ import: data }, 202);
  inBackground(run(claimed, token, options));
  return json({ import: claimed }, 202);
});
