// One campaign message for one recipient (SPEC §7): the campaign compiled once by the shared
// renderer (lib/email-render: merge tags, layout, footer with unsubscribe, preferences and "view in
// browser"), rendered with the reader's values, and the list headers: List-Unsubscribe (+ Post),
// List-Id and a Message-ID that deliveries.message_id keeps.
import { adminClient } from './db.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';
import { formatAddress, type OutgoingMail } from './mail.ts';
import { compiledOnce } from './campaign-render.ts';
import { loadTracking, trackedBodyHtml, type TrackingSettings } from './campaign-tracking.ts';
import {
  listUnsubscribeHeaders,
  subscriberLinks,
  testLinks,
  type MailSettings,
} from './subscriber-mail.ts';
import { signToken } from './tokens.ts';
import {
  layoutSettingsFrom,
  recipientScope,
  renderCampaign,
  sampleSubscriber,
  sampleWaitlist,
  TemplateError,
  type CampaignSource,
  type CompiledCampaign,
  type RenderedCampaign,
  type ScopeSubscriber,
  type ScopeWaitlist,
} from '../../../lib/email-render/index.ts';

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

/** Everything a message of one campaign needs, compiled once per worker and campaign. */
export interface CampaignContext {
  campaign: CampaignRow;
  settings: MailSettings;
  compiled: CompiledCampaign;
  /** The campaign's web version, the same link for every reader. */
  webUrl: string;
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
    .select(
      'site_name, sender_name, sender_email, reply_to, postal_address, accent_color, logo_path',
    )
    .single();
  if (error || !data) {
    console.error('the site settings could not be read', error);
    throw new AppError('internal');
  }
  return data as MailSettings;
}

/** A TemplateError as the catalogue's `template_error` (422), naming the field and the line. */
export function templateAppError(error: unknown): unknown {
  if (!(error instanceof TemplateError)) return error;
  return new AppError('template_error', error.message, {
    field: error.part === 'body' ? 'body_md' : error.part,
  });
}

/**
 * A campaign's templates compiled with the settings' layout (kept by this isolate for its next
 * runs: campaign-render.ts); `template_error` when one is wrong.
 */
export function compiledCampaign(source: CampaignSource, settings: MailSettings): CompiledCampaign {
  try {
    return compiledOnce(source, layoutSettingsFrom(settings, env.supabaseUrl));
  } catch (error) {
    throw templateAppError(error);
  }
}

/**
 * The campaign as nobody's copy: defaults apply, no reader's links (what the archive keeps and the
 * web version shows). Also rendered once for a sample reader, so a template that fails only with
 * values (a loop past the limits, a message over 1 MB) is `template_error` before anything is sent.
 */
export function anonymousRendering(
  source: CampaignSource & { id: string },
  settings: MailSettings,
): RenderedCampaign {
  const compiled = compiledCampaign(source, settings);
  const site = { name: settings.site_name, url: env.siteUrl() };
  try {
    renderCampaign(
      compiled,
      recipientScope({
        subscriber: sampleSubscriber(settings.sender_email),
        site,
        subject: source.subject,
        links: { unsubscribe: site.url, preferences: site.url, web: webVersionUrl(source.id) },
        waitlist: sampleWaitlist(site.url),
      }),
    );
    return renderCampaign(
      compiled,
      recipientScope({ subscriber: null, site, subject: source.subject, links: null }),
    );
  } catch (error) {
    throw templateAppError(error);
  }
}

/** Where "view in browser" goes: the site's /web/ page with a token naming only the campaign. */
export function webVersionUrl(campaignId: string): string {
  // No subscriber (`s` empty): the web version shows nobody's data, so a forwarded link leaks none.
  return `${env.siteUrl()}/web/?token=${signToken({ p: 'web', s: '', c: campaignId })}`;
}

/**
 * Loads a campaign with its lists and compiles it. Only a draft is editable (SPEC §4) and
 * start_campaign_send checks body_md and subject are those read, so once a send has started every
 * worker compiles the same templates.
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
  return {
    campaign: row,
    settings,
    compiled: compiledCampaign(row, settings),
    webUrl: webVersionUrl(row.id),
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

/** A recipient as the worker reads them (a test send passes a sample reader). */
export interface CampaignRecipient extends ScopeSubscriber {
  id: string;
}

/** One reader's rendering of the campaign, with their links; tracking only for real deliveries. */
export function renderForRecipient(
  context: CampaignContext,
  recipient: CampaignRecipient,
  options: { test?: boolean; waitlist?: ScopeWaitlist } = {},
): { rendered: RenderedCampaign; headers: Record<string, string> } {
  const { campaign, settings } = context;
  // A real delivery's links name the campaign (unsubscribes count for it) and may be tracked; a
  // test message's are neither, so previews never show up in the campaign's report.
  const campaignId = options.test ? undefined : campaign.id;
  // A test's links open the pages' test state and change nothing (subscriber-mail.ts).
  const links = options.test
    ? testLinks()
    : subscriberLinks(recipient.id, context.listIds, campaignId);
  const scope = recipientScope({
    subscriber: recipient,
    site: { name: settings.site_name, url: env.siteUrl() },
    subject: campaign.subject,
    links: { unsubscribe: links.unsubscribe, preferences: links.preferences, web: context.webUrl },
    waitlist: options.waitlist,
  });
  const trackBody = campaignId
    ? (html: string) =>
        trackedBodyHtml(html, {
          source: { campaignId },
          subscriberId: recipient.id,
          tracking: context.tracking,
        })
    : undefined;
  return {
    rendered: renderCampaign(context.compiled, scope, { trackBody }),
    headers: { ...listUnsubscribeHeaders(links, settings), 'List-Id': context.listIdHeader },
  };
}

/**
 * The message for one subscriber; `test` prefixes the subject (not the HTML's title, so a test's
 * HTML part is the preview's) and leaves the links untracked. Throws TemplateError when the
 * reader's values make the message fail (a loop past the limits, over 1 MB).
 */
export function campaignMail(
  context: CampaignContext,
  recipient: CampaignRecipient,
  options: { test?: boolean; waitlist?: ScopeWaitlist } = {},
): OutgoingMail {
  const { campaign, settings } = context;
  const { rendered, headers } = renderForRecipient(context, recipient, options);
  const from = formatAddress(campaign.from_name || settings.sender_name, senderEmail(context));
  const messageId = options.test
    ? `<${campaign.id}.test-${crypto.randomUUID()}@${senderEmail(context).split('@').pop()}>`
    : campaignMessageId(context, recipient.id);
  return {
    from,
    ...(settings.reply_to ? { replyTo: settings.reply_to } : {}),
    to: recipient.email,
    subject: `${options.test ? '[Test] ' : ''}${rendered.subject}`,
    text: rendered.text,
    html: rendered.html,
    headers,
    messageId,
  };
}
