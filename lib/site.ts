// What the public pages say about the site: the public columns of `settings` (SPEC §3), with
// defaults while it loads or when no row comes back.
export const SITE_DEFAULTS = {
  name: 'Postbox',
  tagline: 'Short, useful letters about building for the web. One email a fortnight, no noise.',
} as const;

export interface PublicSettingsRow {
  site_name: string;
  tagline: string;
  logo_path: string | null;
  show_subscriber_count: boolean;
}

export interface SiteIdentity {
  name: string;
  tagline: string;
  /** `media/<path>` for the image loader, or null for the built-in mark. */
  logoSrc: string | null;
  showSubscriberCount: boolean;
}

/** The identity to show for a settings row (or none yet); blank values fall back to the defaults. */
export function siteIdentity(row: PublicSettingsRow | null | undefined): SiteIdentity {
  const name = row?.site_name.trim();
  const tagline = row?.tagline.trim();
  const logo = row?.logo_path?.trim().replace(/^\/+/, '');
  return {
    name: name || SITE_DEFAULTS.name,
    tagline: tagline || SITE_DEFAULTS.tagline,
    logoSrc: logo ? `media/${logo}` : null,
    showSubscriberCount: row?.show_subscriber_count ?? false,
  };
}
