// The head of a pre-rendered issue page (/archive/<slug>/): title, description (the preheader),
// canonical URL, Open Graph and Twitter card, with the issue's first image or else the site's logo.
// Computed at build time (getStaticProps), so sanitize-html never reaches a browser.
import sanitizeHtml from 'sanitize-html';
import { issueUrl, normaliseSiteUrl } from './archive-links';

export interface IssueMeta {
  /** `<title>` and og:title: the subject. */
  title: string;
  /** The preheader, or a line naming the site when there is none. */
  description: string;
  canonical: string;
  siteName: string;
  /** Absolute URL of the card's image, or null (a text-only card). */
  image: string | null;
  publishedAt: string;
}

/** The first image's absolute http(s) URL in an issue's HTML, or null. */
export function firstImage(html: string, base: string): string | null {
  let found: string | null = null;
  sanitizeHtml(html, {
    allowedTags: ['img'],
    allowedAttributes: { img: ['src'] },
    exclusiveFilter(frame) {
      if (!found && frame.tag === 'img' && frame.attribs.src) {
        try {
          const url = new URL(frame.attribs.src, base);
          if (url.protocol === 'https:' || url.protocol === 'http:') found = url.href;
        } catch {
          // Not a URL: not an image a card can show.
        }
      }
      return false;
    },
  });
  return found;
}

export function issueMeta(input: {
  siteUrl: string;
  siteName: string;
  logoUrl: string | null;
  issue: {
    slug: string;
    subject: string;
    preheader: string;
    body_html: string;
    finished_at: string;
  };
}): IssueMeta {
  const base = normaliseSiteUrl(input.siteUrl);
  const canonical = issueUrl(base, input.issue.slug, new Set([input.issue.slug]));
  const title = input.issue.subject.trim() || 'Untitled issue';
  const siteName = input.siteName.trim();
  return {
    title,
    description:
      input.issue.preheader.trim() ||
      (siteName ? `An issue of ${siteName}.` : 'An issue from the archive.'),
    canonical,
    siteName,
    image: firstImage(input.issue.body_html, canonical) ?? input.logoUrl,
    publishedAt: input.issue.finished_at,
  };
}
