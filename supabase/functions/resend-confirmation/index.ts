// resend-confirmation (issue 23): an admin or owner mails the confirmation email again to pending
// subscribers — `{subscriber_ids}` (the subscriber page) or `{rules}` (a selection or the page's
// filter) — and gets the send's row (202) to watch its progress. The mailing runs after the answer
// at the send rate, and hands on to a fresh invocation with the service key when its budget is
// spent; pg_cron starts one for a send whose run died or whose import just finished (`{send_id}`,
// service role only).
import { isServiceRole, rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { invalidInput } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { requireAdmin } from '../_shared/import-auth.ts';
import { isUuid } from '../../../lib/uuid.ts';
import { resendRules } from './input.ts';
import { runSend } from './run.ts';

type EdgeRuntimeGlobal = { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } };

function setting(name: string, fallback: number): number {
  const value = Number(Deno.env.get(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Runs the send after the answer; a run that spent its budget starts the next as a new request. */
function inBackground(sendId: string): void {
  const work = runSend(sendId, {
    budgetMs: setting('POSTBOX_QUEUE_BUDGET_MS', 25_000),
    maxMessages: setting('POSTBOX_QUEUE_MAX_MESSAGES', 500),
  })
    .then(async (outcome) => {
      if (outcome !== 'more') return;
      const response = await fetch(env.functionUrl('resend-confirmation'), {
        method: 'POST',
        headers: env.serviceHeaders({ 'Content-Type': 'application/json' }),
        body: JSON.stringify({ send_id: sendId }),
      });
      await response.text();
    })
    .catch((error) => console.error(`confirmation send ${sendId} failed`, error));
  (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil(work);
}

serve(['POST'], async (req) => {
  if (await isServiceRole(req)) {
    const body = await readJsonObject(req);
    if (!isUuid(body.send_id)) throw invalidInput('send_id', 'must be the id of a send');
    inBackground(body.send_id);
    return json({ send_id: body.send_id }, 202);
  }
  const caller = await requireAdmin(req);
  const rules = resendRules(await readJsonObject(req));
  // Service role: the send's rows are written only here (the caller is checked just above).
  const send = await rpc<{ id: string; status: string }>('start_confirmation_send', {
    p_rules: rules,
    p_actor: caller.id,
  });
  if (send.status !== 'done') inBackground(send.id);
  return json({ send }, 202);
});
