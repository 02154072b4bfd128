// The site's side of lib/campaign-render.ts: the same rules with the npm builds of marked and
// sanitize-html (pinned to the versions in supabase/functions/_shared/deps.ts), for the preview.
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { renderCampaignHtmlWith } from './campaign-render';

/** What `campaigns.body_html` will hold for this Markdown when the campaign is sent. */
export function renderCampaignPreviewHtml(markdown: string): string {
  return renderCampaignHtmlWith({ marked, sanitizeHtml }, markdown);
}
