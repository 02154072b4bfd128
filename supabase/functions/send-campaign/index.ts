// send-campaign (SPEC §4, §6, §7): a team member drives a campaign — send, schedule, unschedule,
// pause, resume (its content checked again), cancel, retry (admin and up) or a test to team
// addresses (editor and up). Every state change is one SQL function; sending itself is
// process-queue's, which a send or resume starts at once.
import { adminClient, callerOf, rpc } from '../_shared/db.ts';
import { AppError } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { startCampaign } from '../_shared/campaign-queue.ts';
import { kickQueue } from '../_shared/campaign-kick.ts';
import {
  anonymousRendering,
  campaignMail,
  loadCampaignContext,
  loadMailSettings,
  templateAppError,
} from '../_shared/campaign-mail.ts';
import { sampleSubscriber, sampleWaitlist } from '../../../lib/email-render/index.ts';
import { env } from '../_shared/env.ts';
import { sendMail } from '../_shared/mail.ts';
import { parseCampaignRequest, type CampaignRequest } from './input.ts';
import { sendSystemTest } from './system-test.ts';

const RANK: Record<string, number> = { viewer: 1, editor: 2, admin: 3, owner: 4 };

async function callerRole(req: Request): Promise<{ email: string; rank: number }> {
  const caller = await callerOf(req);
  const { data, error } = await adminClient()
    .from('members')
    .select('role')
    .eq('user_id', caller.id)
    .maybeSingle();
  if (error) throw new AppError('internal');
  return { email: caller.email, rank: RANK[data?.role ?? ''] ?? 0 };
}

async function campaignRow(id: string): Promise<Record<string, unknown>> {
  const { data, error } = await adminClient()
    .from('campaigns')
    .select('*')
    .eq('id', id)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (!data) throw new AppError('not_found', 'That campaign does not exist.');
  return data;
}

/** A test goes only to team members' addresses (the caller's own when none are given). */
async function sendTest(request: CampaignRequest, callerEmail: string): Promise<Response> {
  const emails = request.emails ?? [callerEmail];
  const { data, error } = await adminClient().from('members').select('email').in('email', emails);
  if (error) throw new AppError('internal');
  const known = new Set((data ?? []).map((m) => String(m.email).toLowerCase()));
  const stranger = emails.find((e) => !known.has(e));
  if (stranger)
    throw new AppError('invalid_input', `emails: ${stranger} is not a team member`, {
      field: 'emails',
    });
  const context = await loadCampaignContext(request.campaignId, await loadMailSettings());
  if (!context.campaign.subject.trim())
    throw new AppError('invalid_input', 'subject: must be 1 to 200 characters', {
      field: 'subject',
    });
  // The footer links of a test point at no subscriber, so they do nothing when followed. The
  // merge tags show the editor preview's sample reader, at the address the test goes to. Every
  // message is rendered before the first is sent: a template error sends none.
  const nobody = '00000000-0000-0000-0000-000000000000';
  const waitlist = sampleWaitlist(env.siteUrl());
  const mails = emails.map((email) => {
    try {
      return campaignMail(
        context,
        { ...sampleSubscriber(email), id: nobody },
        { test: true, waitlist },
      );
    } catch (error) {
      throw templateAppError(error);
    }
  });
  for (const mail of mails) await sendMail(mail);
  return json({ sent: emails });
}

serve(['POST'], async (req) => {
  // Who first, then what: a caller who may do nothing here (a stranger, a viewer) learns nothing
  // about the input rules, and an editor, who may only send tests, nothing about the other actions'.
  const caller = await callerRole(req);
  if (caller.rank < RANK.editor!) throw new AppError('forbidden');
  const body = await readJsonObject(req);
  if (caller.rank < RANK.admin! && body.action !== 'test') throw new AppError('forbidden');
  if (body.action === 'test_email') return await sendSystemTest(body, caller.email);
  const request = parseCampaignRequest(body);
  const id = request.campaignId;

  switch (request.action) {
    case 'test':
      return await sendTest(request, caller.email);
    case 'send': {
      const campaign = await campaignRow(id);
      await startCampaign({
        id,
        body_md: String(campaign.body_md ?? ''),
        subject: String(campaign.subject ?? ''),
        preheader: String(campaign.preheader ?? ''),
      });
      kickQueue();
      return json({ campaign: await campaignRow(id) });
    }
    case 'resume': {
      // A paused campaign's content may have been edited: its merge tags are checked again and
      // the archive's copy re-rendered before anything more is sent (template_error otherwise).
      const row = await campaignRow(id);
      const source = {
        id,
        body_md: String(row.body_md ?? ''),
        subject: String(row.subject ?? ''),
        preheader: String(row.preheader ?? ''),
      };
      const archived = anonymousRendering(source, await loadMailSettings());
      const campaign = await rpc<Record<string, unknown>>('resume_campaign_send', {
        p_campaign_id: id,
        p_body_html: archived.bodyHtml,
        p_body_md: source.body_md,
        p_subject: source.subject,
        p_preheader: source.preheader,
      });
      kickQueue();
      return json({ campaign });
    }
    case 'retry': {
      const retried = await rpc<number>('retry_failed_deliveries', { p_campaign_id: id });
      if (retried > 0) kickQueue();
      return json({ campaign: await campaignRow(id), retried });
    }
    default: {
      if (request.action === 'schedule') {
        // A scheduled send must not fail at its time for a template error found now (SPEC §10).
        const row = await campaignRow(id);
        anonymousRendering(
          {
            id,
            body_md: String(row.body_md ?? ''),
            subject: String(row.subject ?? ''),
            preheader: String(row.preheader ?? ''),
          },
          await loadMailSettings(),
        );
      }
      const campaign = await rpc<Record<string, unknown>>('campaign_action', {
        p_campaign_id: id,
        p_action: request.action,
        p_at: request.at ?? null,
      });
      return json({ campaign });
    }
  }
});
