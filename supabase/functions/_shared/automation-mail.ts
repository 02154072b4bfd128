// One automation email for one subscriber (issue 24): the step's subject, preheader and Markdown
// body compiled once per run by the shared renderer (lib/email-render: merge tags, layout, footer),
// rendered with the reader's values, with the same list headers as a campaign. The unsubscribe link
// names the trigger list (a list-triggered automation), else every list the reader is confirmed on,
// and the step (its unsubscribes count for it); with tracking on, the pixel and click links name
// the step too (campaign-tracking.ts). A list-triggered step also knows `{{ list.name }}` and, on a
// waitlist list, the reader's `{{ waitlist.* }}` (place, referral link, live place page), read once
// per claimed batch (the seeded welcome uses them: issue 24).
import { adminClient, rpc } from './db.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';
import { formatAddress, type OutgoingMail } from './mail.ts';
import { compiledCampaign } from './campaign-mail.ts';
import { loadTracking, trackedBodyHtml, type TrackingSettings } from './campaign-tracking.ts';
import { listUnsubscribeHeaders, subscriberLinks, type MailSettings } from './subscriber-mail.ts';
import { placeUrl, referralUrl } from '../confirm/payload.ts';
import {
  recipientScope,
  renderCampaign,
  type CompiledCampaign,
  type ScopeWaitlist,
} from '../../../lib/email-render/index.ts';

interface TriggerList {
  id: string;
  slug: string;
  name: string;
  waitlist: boolean;
}

export interface AutomationStepContext {
  stepId: string;
  automationId: string;
  subject: string;
  compiled: CompiledCampaign;
  /** The trigger list of a list-triggered automation, else null (the reader's own lists). */
  triggerList: TriggerList | null;
  settings: MailSettings;
  /** The tracking switches when the step was loaded (once per process-queue run and step). */
  tracking: TrackingSettings;
}

export interface AutomationRecipient {
  id: string;
  email: string;
  name: string | null;
  attributes: Record<string, unknown> | null;
  status: string;
  subscriptions: { list_id: string; status: string; lists?: { slug: string } | null }[];
}

interface StepRow {
  id: string;
  automation_id: string;
  kind: string;
  subject: string | null;
  preheader: string;
  body_md: string | null;
  automations: {
    trigger_kind: string;
    trigger_list_id: string | null;
    lists: TriggerList | null;
  };
}

/**
 * Reads and compiles an email step as it is now: editing a live automation changes the emails of
 * steps not yet reached. A template error here fails the step's sends (recorded with the error).
 */
export async function loadStepContext(
  stepId: string,
  settings: MailSettings,
): Promise<AutomationStepContext> {
  const { data, error } = await adminClient()
    .from('automation_steps')
    .select(
      'id, automation_id, kind, subject, preheader, body_md, automations(trigger_kind, trigger_list_id, lists(id, slug, name, waitlist))',
    )
    .eq('id', stepId)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (!data) throw new AppError('not_found', 'That automation step does not exist.');
  const step = data as unknown as StepRow;
  const source = {
    subject: step.subject ?? '',
    preheader: step.preheader,
    body_md: step.body_md ?? '',
  };
  const list = step.automations.trigger_kind === 'list' ? step.automations.lists : null;
  return {
    stepId: step.id,
    automationId: step.automation_id,
    subject: source.subject,
    compiled: compiledCampaign(source, settings),
    triggerList: list,
    settings,
    tracking: await loadTracking(),
  };
}

/** `<auto.step.subscriber.round@sender-domain>`: unique per send, the same on a retry. */
export function automationMessageId(
  context: AutomationStepContext,
  subscriberId: string,
  round: number,
): string {
  const domain = context.settings.sender_email.split('@').pop() || 'localhost';
  return `<auto.${context.stepId}.${subscriberId}.${round}@${domain}>`;
}

const standingKey = (listId: string, subscriberId: string) => `${listId}/${subscriberId}`;

/**
 * The waitlist merge tags of a claimed batch: for each step whose trigger list is a waitlist and
 * whose email uses them, its readers' standing there (one call per list). A step that cannot be
 * loaded is left to fail when sent.
 */
export async function batchStandings(
  rows: { step_id: string; subscriber_id: string }[],
  context: (stepId: string) => Promise<AutomationStepContext>,
): Promise<Map<string, ScopeWaitlist>> {
  const byList = new Map<string, Set<string>>();
  for (const stepId of new Set(rows.map((r) => r.step_id))) {
    const c = await context(stepId).catch(() => null);
    if (!c?.triggerList?.waitlist || !c.compiled.usesWaitlist) continue;
    const ids = byList.get(c.triggerList.id) ?? new Set<string>();
    for (const r of rows) if (r.step_id === stepId) ids.add(r.subscriber_id);
    byList.set(c.triggerList.id, ids);
  }
  const standings = new Map<string, ScopeWaitlist>();
  const site = env.siteUrl();
  for (const [listId, ids] of byList) {
    const found = await rpc<
      {
        subscriber_id: string;
        list_slug: string;
        referral_code: string | null;
        standing: { position: number | null; total: number; referrals: number };
      }[]
    >('automation_waitlist_standings', { p_list: listId, p_subscribers: [...ids] });
    for (const r of found)
      standings.set(standingKey(listId, r.subscriber_id), {
        list: r.list_slug,
        position: r.standing.position,
        total: r.standing.total,
        referrals: r.standing.referrals,
        referral_url: r.referral_code ? referralUrl(site, r.referral_code, r.list_slug) : '',
        place_url: r.referral_code ? placeUrl(site, r.referral_code, r.list_slug) : '',
      });
  }
  return standings;
}

/** A reader's standing for this step's email, when the batch read one. */
export function standingFor(
  context: AutomationStepContext,
  subscriberId: string,
  standings: Map<string, ScopeWaitlist>,
): ScopeWaitlist | undefined {
  return context.triggerList
    ? standings.get(standingKey(context.triggerList.id, subscriberId))
    : undefined;
}

/** Why this reader must not get the email now (then their enrolment ends), or null. */
export function automationSkipReason(
  context: AutomationStepContext,
  recipient: AutomationRecipient | undefined,
): string | null {
  if (!recipient) return 'The subscriber no longer exists.';
  if (recipient.status !== 'enabled') return 'The address is blocklisted.';
  const confirmed = recipient.subscriptions.filter((s) => s.status === 'confirmed');
  if (context.triggerList)
    return confirmed.some((s) => s.list_id === context.triggerList!.id)
      ? null
      : 'Unsubscribed from the list before the email went out.';
  return confirmed.length > 0 ? null : 'Unsubscribed before the email went out.';
}

export function automationMail(
  context: AutomationStepContext,
  recipient: AutomationRecipient,
  round: number,
  waitlist?: ScopeWaitlist,
): OutgoingMail {
  const { settings } = context;
  const listIds = context.triggerList
    ? [context.triggerList.id]
    : recipient.subscriptions.filter((s) => s.status === 'confirmed').map((s) => s.list_id);
  const links = subscriberLinks(recipient.id, listIds, undefined, context.stepId);
  const site = { name: settings.site_name, url: env.siteUrl() };
  const list = context.triggerList;
  const rendered = renderCampaign(
    context.compiled,
    {
      ...recipientScope({
        subscriber: recipient,
        site,
        subject: context.subject,
        links: { unsubscribe: links.unsubscribe, preferences: links.preferences, web: '' },
        waitlist,
      }),
      ...(list ? { list: { name: list.name, slug: list.slug } } : {}),
    },
    {
      trackBody: (html: string) =>
        trackedBodyHtml(html, {
          source: { stepId: context.stepId },
          subscriberId: recipient.id,
          tracking: context.tracking,
        }),
    },
  );
  const host = new URL(env.siteUrl()).hostname;
  const slug = context.triggerList?.slug;
  return {
    from: formatAddress(settings.sender_name, settings.sender_email),
    ...(settings.reply_to ? { replyTo: settings.reply_to } : {}),
    to: recipient.email,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers: {
      ...listUnsubscribeHeaders(links, settings),
      'List-Id': slug ? `<${slug}.${host}>` : `<${host}>`,
    },
    messageId: automationMessageId(context, recipient.id, round),
  };
}
