// Settings → Emails' preview (site only): a subscriber email rendered by the renderer the functions
// send with, for the sample values a test send uses, so the frame shows what a test delivers.
import { SUPABASE_URL } from '../config';
import { layoutSettingsFrom, type BrandingRow } from './branding.ts';
import { TemplateError } from './liquid-source.ts';
import { siteRenderDeps } from './site.ts';
import {
  compileSystemEmail,
  renderSystemEmail,
  sampleValues,
  type SystemEmailKind,
  type SystemTemplate,
} from './system-emails.ts';

export type SystemPreview =
  | { ok: true; subject: string; html: string; text: string; unknown: string[] }
  | { ok: false; error: string; part: TemplateError['part']; line: number };

export function previewSystemEmail(
  kind: SystemEmailKind,
  template: SystemTemplate,
  context: { settings: BrandingRow; siteUrl: string; email: string },
): SystemPreview {
  const site = context.siteUrl.replace(/\/+$/, '');
  try {
    const compiled = compileSystemEmail(
      siteRenderDeps,
      kind,
      template,
      layoutSettingsFrom(context.settings, SUPABASE_URL),
    );
    const rendered = renderSystemEmail(compiled, {
      subscriber: { email: context.email, name: null, attributes: null },
      site: { name: context.settings.site_name, url: site },
      links: {
        unsubscribe: `${site}/unsubscribe/?test=1&token=preview&preferences=preview`,
        preferences: `${site}/preferences/?test=1&token=preview`,
        web: '',
      },
      values: sampleValues(kind, site),
    });
    return {
      ok: true,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      unknown: compiled.unknown,
    };
  } catch (error) {
    if (error instanceof TemplateError)
      return { ok: false, error: error.message, part: error.part, line: error.line };
    throw error;
  }
}
