// One campaign message for one recipient (SPEC §7): the rendered body in the responsive layout, the
// footer (postal address, unsubscribe and preferences links) from subscriber-mail.ts, and the list
// headers: List-Unsubscribe (+ Post), List-Id and a Message-ID that deliveries.message_id keeps.
import { adminClient } from './db.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';
import { formatAddress, type OutgoingMail } from './mail.ts';
import { renderCampaignHtml, renderCampaignText } from './campaign-render.ts';
import { loadTracking, trackedBodyHtml, type TrackingSettings } from './campaign-tracking.ts';
import {
  footerHtml,
  footerText,
  layoutHtml,
  listUnsubscribeHeaders,
  subscriberLinks,
  type MailSettings,
} from './subscriber-mail.ts';

export interface CampaignRow {
  id: string;
  subject: string;
  preheader: string;
  body_md: string;
  body_html: string;
  from_name: string | null;
  from_email: string | null;
  status: string;
}

/** Everything a message of one campaign needs, rendered once per worker and campaign. */
export interface CampaignContext {
  campaign: CampaignRow;
  settings: MailSettings;
  html: string;
  text: string;
  listIds: string[];
  listIdHeader: string;
  /** The opt-in tracking switches when this context was made (campaign-tracking.ts). */
  tracking: TrackingSettings;
}

const CAMPAIGN_COLUMNS =
  'id, subject, preheader, body_md, body_html, from_name, from_email, status';

/** The settings columns mail needs. */
export async function loadMailSettings(): Promise<MailSettings> {
  const { data, error } = await adminClient()
    .from('settings')
    .select('site_name, sender_name, sender_email, reply_to, postal_address')
    .single();
  if (error || !data) {
    console.error('the site settings could not be read', error);
    throw new AppError('internal');
  }
  return data as MailSettings;
}

/**
 * Loads a campaign with its lists. `html` is the stored body_html once a send has started (what
 * the archive shows, so every recipient gets exactly that), else freshly rendered from body_md.
 */
export async function loadCampaignContext(
  campaignId: string,
  settings: MailSettings,
): Promise<CampaignContext> {
  const db = adminClient();
  const { data: campaign, error } = await db
    .from('campaigns')
    .select(CAMPAIGN_COLUMNS)
    .eq('id', campaignId)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (!campaign) throw new AppError('not_found', 'That campaign does not exist.');
  const lists = await db
    .from('campaign_lists')
    .select('list_id, lists(slug, name, created_at)')
    .eq('campaign_id', campaignId);
  if (lists.error) throw new AppError('internal');
  type ListRow = { list_id: string; lists: { slug: string; name: string; created_at: string } };
  const rows = ((lists.data ?? []) as unknown as ListRow[]).sort((a, b) =>
    a.lists.created_at.localeCompare(b.lists.created_at),
  );
  const row = campaign as CampaignRow;
  const started = !['draft', 'scheduled'].includes(row.status) && row.body_html !== '';
  return {
    campaign: row,
    settings,
    html: started ? row.body_html : renderCampaignHtml(row.body_md),
    text: renderCampaignText(row.body_md),
    listIds: rows.map((r) => r.list_id),
    listIdHeader: listIdHeader(rows[0]?.lists ?? null),
    tracking: await loadTracking(),
  };
}

/**
 * RFC 2919 List-Id `<list-slug.site-host>` (the site host alone when there is no list). No display
 * name: nodemailer would encode a quoted phrase into encoded-words, which list filters cannot read.
 */
export function listIdHeader(list: { slug: string } | null): string {
  const host = new URL(env.siteUrl()).hostname;
  return list ? `<${list.slug}.${host}>` : `<${host}>`;
}

function senderEmail(context: CampaignContext): string {
  return context.campaign.from_email || context.settings.sender_email;
}

/** `<campaign-id.subscriber-id@sender-domain>`: unique per delivery, the same on a retry. */
export function campaignMessageId(context: CampaignContext, subscriberId: string): string {
  const domain = senderEmail(context).split('@').pop() || 'localhost';
  return `<${context.campaign.id}.${subscriberId}@${domain}>`;
}

/** The message for one subscriber; `test` prefixes the subject and marks the links as a preview. */
export function campaignMail(
  context: CampaignContext,
  recipient: { id: string; email: string },
  options: { test?: boolean } = {},
): OutgoingMail {
  const { campaign, settings } = context;
  // A real delivery's links name the campaign (unsubscribes count for it) and may be tracked; a
  // test message's are neither, so previews never show up in the campaign's report.
  const campaignId = options.test ? undefined : campaign.id;
  const links = subscriberLinks(recipient.id, context.listIds, campaignId);
  const subject = `${options.test ? '[Test] ' : ''}${campaign.subject}`;
  const from = formatAddress(campaign.from_name || settings.sender_name, senderEmail(context));
  const messageId = options.test
    ? `<${campaign.id}.test-${crypto.randomUUID()}@${senderEmail(context).split('@').pop()}>`
    : campaignMessageId(context, recipient.id);
  return {
    from,
    ...(settings.reply_to ? { replyTo: settings.reply_to } : {}),
    to: recipient.email,
    subject,
    text: `${context.text}\n\n${footerText(settings, links)}\n`,
    html: layoutHtml({
      title: subject,
      bodyHtml: campaignId
        ? trackedBodyHtml(context.html, {
            campaignId,
            subscriberId: recipient.id,
            tracking: context.tracking,
          })
        : context.html,
      footerHtml: footerHtml(settings, links),
      preheader: campaign.preheader || undefined,
    }),
    headers: { ...listUnsubscribeHeaders(links, settings), 'List-Id': context.listIdHeader },
    messageId,
  };
}
