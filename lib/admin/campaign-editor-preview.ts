// What the editor's preview shows: the campaign rendered by the shared renderer (lib/email-render,
// the one the send runs) for a sample reader, so the frame holds the email's own HTML document,
// footer included. Differences from a sent message: the links' tokens ("preview" here), and a
// real delivery's tracking when tracking is on.
import { SUPABASE_URL } from '../config';
import {
  compileCampaign,
  layoutSettingsFrom,
  type BrandingRow,
  MERGE_TAGS,
  recipientScope,
  renderCampaign,
  sampleSubscriber,
  sampleWaitlist,
  TemplateError,
} from '../email-render/index.ts';
import { siteRenderDeps } from '../email-render/site.ts';

export { MERGE_TAGS };

export interface PreviewInput {
  subject: string;
  preheader: string;
  fromName: string;
  bodyMd: string;
}

export interface PreviewContext {
  /** The settings row's branding: the logo's URL is made as the send makes it. */
  settings: BrandingRow;
  /** The site's address (the page's origin): where the footer's links point. */
  siteUrl: string;
  /** The signed-in member's address: the sample reader's, as a test to oneself has it. */
  email: string;
}

export type PreviewResult =
  | {
      ok: true;
      subject: string;
      preheader: string;
      html: string;
      text: string;
      /** Variables Postbox does not provide: a warning, they render empty. */
      unknown: string[];
    }
  | { ok: false; error: string; part: TemplateError['part']; line: number };

export function previewCampaign(input: PreviewInput, context: PreviewContext): PreviewResult {
  const site = context.siteUrl.replace(/\/+$/, '');
  try {
    const compiled = compileCampaign(
      siteRenderDeps,
      { subject: input.subject, preheader: input.preheader, body_md: input.bodyMd },
      layoutSettingsFrom(context.settings, SUPABASE_URL),
    );
    const rendered = renderCampaign(
      compiled,
      recipientScope({
        subscriber: sampleSubscriber(context.email),
        site: { name: context.settings.site_name, url: site },
        subject: input.subject,
        links: {
          // Shaped like a test send's links (which open the pages' test state).
          unsubscribe: `${site}/unsubscribe/?test=1&token=preview&preferences=preview`,
          preferences: `${site}/preferences/?test=1&token=preview`,
          web: `${site}/web/?token=preview`,
        },
        waitlist: sampleWaitlist(site),
      }),
    );
    return { ok: true, ...rendered, unknown: compiled.unknown };
  } catch (error) {
    if (error instanceof TemplateError)
      return { ok: false, error: error.message, part: error.part, line: error.line };
    throw error;
  }
}
