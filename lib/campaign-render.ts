// Campaign Markdown → sanitised HTML (SPEC §5): the one set of rules shared by the edge functions
// (supabase/functions/_shared/campaign-render.ts) and the editor's live preview. Import-free, like
// lib/email.ts, so Deno and the browser both load it; each side passes its own `marked` and
// `sanitize-html` (the same pinned versions: _shared/deps.ts and package.json).

/** Images get a fixed inline style so they never overflow the 600 px column of mail clients. */
export const CAMPAIGN_IMAGE_STYLE = 'max-width:100%;height:auto';

type Attributes = Record<string, string>;

function withAttributes(extra: Attributes) {
  return (tagName: string, attribs: Attributes) => ({
    tagName,
    attribs: { ...attribs, ...extra },
  });
}

/** sanitize-html options: only text formatting, links and images; no script, style or handlers. */
export const CAMPAIGN_SANITIZE_OPTIONS = {
  allowedTags: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code'],
    ...['ul', 'ol', 'li', 'strong', 'b', 'em', 'i', 'del', 's', 'a', 'img', 'sup', 'sub'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'style'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
  },
  // No javascript:, data:, vbscript: … anywhere; images only over http(s).
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // script, style, textarea… are dropped with their content; other unknown tags keep their text.
  disallowedTagsMode: 'discard' as const,
  transformTags: {
    a: withAttributes({ rel: 'noopener' }),
    img: withAttributes({ style: CAMPAIGN_IMAGE_STYLE }),
  },
};

export type CampaignSanitizeOptions = typeof CAMPAIGN_SANITIZE_OPTIONS;

/** The two libraries, as each runtime imports them. */
export interface CampaignRenderDeps {
  marked: {
    parse(src: string, options: { async: false; gfm: true }): string | Promise<string>;
  };
  sanitizeHtml: (html: string, options: CampaignSanitizeOptions) => string;
}

/** Markdown (raw HTML allowed, then sanitised) → HTML without scripts, handlers or unsafe URLs. */
export function renderCampaignHtmlWith(deps: CampaignRenderDeps, markdown: string): string {
  const html = deps.marked.parse(markdown, { async: false, gfm: true });
  // With async: false marked returns a string; a Promise would mean an async extension slipped in.
  if (typeof html !== 'string') throw new Error('marked returned a Promise for async: false');
  return deps.sanitizeHtml(html, CAMPAIGN_SANITIZE_OPTIONS).trim();
}
