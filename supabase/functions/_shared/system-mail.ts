// The subscriber emails Postbox sends on its own (confirmation, welcome, already subscribed): the
// team's wording from public.email_templates, or the default (lib/email-render/system-emails.ts),
// rendered by the campaign renderer in the branded layout, with the signed footer links and the
// List-Unsubscribe headers. A custom template that cannot be read or rendered falls back to the
// default, so a reader always gets the email they asked for.
import {
  compileSystemEmail,
  DEFAULT_TEMPLATES,
  layoutSettingsFrom,
  renderSystemEmail,
  type RenderedCampaign,
  type SystemEmailKind,
  type SystemTemplate,
  type SystemValues,
} from '../../../lib/email-render/index.ts';
import { renderDeps } from './campaign-render.ts';
import { adminClient } from './db.ts';
import { env } from './env.ts';
import type { OutgoingMail } from './mail.ts';
import {
  listUnsubscribeHeaders,
  senderFields,
  subscriberLinks,
  type MailSettings,
} from './subscriber-mail.ts';

/** The team's template for a kind, or null for the default (also when it cannot be read). */
export async function customTemplate(kind: SystemEmailKind): Promise<SystemTemplate | null> {
  const { data, error } = await adminClient()
    .from('email_templates')
    .select('subject, preheader, body_md')
    .eq('kind', kind)
    .maybeSingle();
  if (error) console.error(`reading the ${kind} email template failed; using the default`, error);
  return (data as SystemTemplate | null) ?? null;
}

/** One reader's rendering of `template` (throws TemplateError when it cannot render). */
export function renderSystem(
  kind: SystemEmailKind,
  template: SystemTemplate,
  settings: MailSettings,
  parts: {
    email: string;
    links: { unsubscribe: string; preferences: string };
    values: SystemValues;
  },
): RenderedCampaign {
  const compiled = compileSystemEmail(
    renderDeps,
    kind,
    template,
    layoutSettingsFrom(settings, env.supabaseUrl),
  );
  return renderSystemEmail(compiled, {
    subscriber: { email: parts.email, name: null, attributes: null },
    site: { name: settings.site_name, url: env.siteUrl() },
    links: { ...parts.links, web: '' },
    values: parts.values,
  });
}

/** The message of `kind` to one subscriber, in the team's wording when there is one. */
export async function systemMail(
  kind: SystemEmailKind,
  parts: {
    settings: MailSettings;
    to: string;
    subscriberId: string;
    values: SystemValues;
    listIds?: string[];
  },
): Promise<OutgoingMail> {
  const links = subscriberLinks(parts.subscriberId, parts.listIds);
  const input = { email: parts.to, links, values: parts.values };
  const custom = await customTemplate(kind);
  let rendered: RenderedCampaign | null = null;
  if (custom) {
    try {
      rendered = renderSystem(kind, custom, parts.settings, input);
    } catch (error) {
      console.error(`the custom ${kind} email cannot render; sending the default`, error);
    }
  }
  rendered ??= renderSystem(kind, DEFAULT_TEMPLATES[kind], parts.settings, input);
  return {
    ...senderFields(parts.settings),
    to: parts.to,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers: listUnsubscribeHeaders(links, parts.settings),
  };
}
