// What the public pages say about the site: the public columns of `settings` (SPEC §3). Nothing
// is made up: until the row arrives (or when it cannot be read) the identity is unknown and pages
// show no name or tagline, and a tagline the owner cleared stays empty.
export const SITE_DEFAULTS = {
  /** The column's own default; only used when a stored name is blank. */
  name: 'Postbox',
} as const;

export interface PublicSettingsRow {
  site_name: string;
  tagline: string;
  logo_path: string | null;
  show_subscriber_count: boolean;
}

export interface SiteIdentity {
  /** False while the settings load, after a failed read, or when no row came back. */
  known: boolean;
  /** The site's name, or '' while unknown. */
  name: string;
  /** The tagline, or '' when the owner left it empty or while unknown. */
  tagline: string;
  /** `media/<path>` for the image loader, or null for the built-in mark. */
  logoSrc: string | null;
  showSubscriberCount: boolean;
}

/** The identity to show for a settings row, or an unknown one without a row. */
export function siteIdentity(row: PublicSettingsRow | null | undefined): SiteIdentity {
  if (!row) {
    return { known: false, name: '', tagline: '', logoSrc: null, showSubscriberCount: false };
  }
  const logo = row.logo_path?.trim().replace(/^\/+/, '');
  return {
    known: true,
    name: row.site_name.trim() || SITE_DEFAULTS.name,
    tagline: row.tagline.trim(),
    logoSrc: logo ? `media/${logo}` : null,
    showSubscriberCount: row.show_subscriber_count,
  };
}

/** A document title from its parts, leaving out unknown ones: `siteTitle('Archive', site.name)`. */
export function siteTitle(...parts: (string | null | undefined)[]): string {
  return parts.filter((part) => part && part.trim()).join(' · ');
}
