// process-queue (SPEC §7, §9): the scheduler's worker. Only the service role may run it (pg_cron via
// pg_net every 10 s, send-campaign after a send or resume); any number may run at once. Campaign
// deliveries and automation steps (issue 24) are worked side by side, sharing the send rate.
import { kickQueue } from '../_shared/campaign-kick.ts';
import { loadMailSettings } from '../_shared/campaign-mail.ts';
import { runQueue } from '../_shared/campaign-queue.ts';
import { AutomationWorker } from '../_shared/automation-worker.ts';
import { callerOf, isServiceRole } from '../_shared/db.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';

const DEFAULT_BUDGET_MS = 25_000;
const DEFAULT_MAX_MESSAGES = 500;

function positiveInteger(value: unknown, field: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max)
    throw invalidInput(field, `must be a whole number from 1 to ${max}`);
  return value;
}

serve(['POST'], async (req) => {
  if (!(await isServiceRole(req))) {
    // Not the service role: `unauthenticated` without a valid session, `forbidden` for a user.
    await callerOf(req);
    throw new AppError('forbidden');
  }
  const body = req.headers.get('content-length') === '0' ? {} : await readJsonObject(req);
  const configured = Number(Deno.env.get('POSTBOX_QUEUE_BUDGET_MS') ?? DEFAULT_BUDGET_MS);
  const budgetMs = positiveInteger(body.budget_ms, 'budget_ms', 120_000) ?? configured;
  // Fault injection for the crash tests only: never honoured unless the environment allows it.
  const abandonAfter =
    Deno.env.get('POSTBOX_QUEUE_TEST_HOOKS') === 'on'
      ? positiveInteger(body.abandon_after, 'abandon_after', 100_000)
      : undefined;
  // A fast queue (high or no rate limit) continues in a fresh run rather than waiting for cron; one
  // successor per run, whichever of the two queues asks first.
  let kicked = false;
  const options = {
    budgetMs: Math.min(budgetMs, configured),
    claimTimeoutSeconds: Number(Deno.env.get('POSTBOX_CLAIM_TIMEOUT_SECONDS') ?? 600),
    concurrency: 32,
    maxMessages: Number(Deno.env.get('POSTBOX_QUEUE_MAX_MESSAGES') ?? DEFAULT_MAX_MESSAGES),
    abandonAfter,
    onMore: () => {
      if (!kicked) kickQueue();
      kicked = true;
    },
  };
  const automations = new AutomationWorker(
    options,
    Date.now() + options.budgetMs,
    await loadMailSettings(),
  );
  // A failing automation engine is logged, and never keeps the campaigns from being sent.
  const automationsFailed = (error: unknown) => {
    console.error('the automation queue failed (campaigns go on)', error);
    automations.abandoned = true;
    return automations.result;
  };
  const started = await automations.start().then(
    () => true,
    (error: unknown) => (automationsFailed(error), false),
  );
  const [result, automationResult] = await Promise.all([
    runQueue(options),
    started ? automations.run().catch(automationsFailed) : automations.result,
  ]);
  const { more: _more, ...answer } = result;
  const { more: _automationsMore, ...automationAnswer } = automationResult;
  // The campaign answer is unchanged; automation counts join it only when there was such work.
  const worked = automationAnswer.advanced > 0 || automationAnswer.claimed > 0;
  return json(worked ? { ...answer, automations: automationAnswer } : answer);
});
