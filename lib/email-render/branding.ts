// The layout's settings from the settings row as each runtime reads it: the logo's storage path
// becomes its public URL (mail clients load it from the project's public `media` bucket), so the
// editor's preview and the send build the same header. Import-free (see merge-tags.ts).
import type { LayoutSettings } from './layout.ts';

/** The settings columns the layout reads (private.mail_settings() answers them for functions). */
export interface BrandingRow {
  site_name: string;
  postal_address: string;
  accent_color?: string | null;
  logo_path?: string | null;
}

/** `<project>/storage/v1/object/public/media/<path>`, or null without a logo. */
export function logoUrl(supabaseUrl: string, logoPath: string | null | undefined): string | null {
  const path = logoPath?.trim().replace(/^\/+/, '');
  if (!path) return null;
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `${supabaseUrl.replace(/\/+$/, '')}/storage/v1/object/public/media/${encoded}`;
}

export function layoutSettingsFrom(row: BrandingRow, supabaseUrl: string): LayoutSettings {
  return {
    site_name: row.site_name,
    postal_address: row.postal_address,
    accent_color: row.accent_color ?? null,
    logo_url: logoUrl(supabaseUrl, row.logo_path),
  };
}
