// A test of a subscriber email (Settings → Emails, issue 21): `{action: 'test_email', kind,
// subject, preheader, body_md}` renders the template as given — saved or not, exactly what the
// page previews — with the sample values, and sends it to the calling admin only. Its footer links
// carry test tokens (nothing changes when followed); a template error is `template_error`.
import {
  SYSTEM_EMAIL_KINDS,
  sampleValues,
  type SystemEmailKind,
} from '../../../lib/email-render/index.ts';
import { loadMailSettings, templateAppError } from '../_shared/campaign-mail.ts';
import { env } from '../_shared/env.ts';
import { invalidInput } from '../_shared/errors.ts';
import { json } from '../_shared/http.ts';
import { sendMail } from '../_shared/mail.ts';
import { senderFields, testLinks } from '../_shared/subscriber-mail.ts';
import { renderSystem } from '../_shared/system-mail.ts';

/** Field limits of public.email_templates (20261128400100_email_templates.sql). */
const LIMITS = { subject: 200, preheader: 200, body_md: 20000 } as const;

function field(body: Record<string, unknown>, name: keyof typeof LIMITS, min: number): string {
  const value = body[name];
  if (typeof value !== 'string' || value.length < min || value.length > LIMITS[name])
    throw invalidInput(name, `must be ${min} to ${LIMITS[name]} characters`);
  return value;
}

export async function sendSystemTest(
  body: Record<string, unknown>,
  callerEmail: string,
): Promise<Response> {
  const kind = body.kind;
  if (typeof kind !== 'string' || !(SYSTEM_EMAIL_KINDS as readonly string[]).includes(kind))
    throw invalidInput('kind', `must be one of ${SYSTEM_EMAIL_KINDS.join(', ')}`);
  const template = {
    subject: field(body, 'subject', 1),
    preheader: field(body, 'preheader', 0),
    body_md: field(body, 'body_md', 1),
  };
  const settings = await loadMailSettings();
  const links = testLinks();
  let rendered;
  try {
    rendered = renderSystem(kind as SystemEmailKind, template, settings, {
      email: callerEmail,
      links,
      values: sampleValues(kind as SystemEmailKind, env.siteUrl()),
    });
  } catch (error) {
    throw templateAppError(error);
  }
  await sendMail({
    ...senderFields(settings),
    to: callerEmail,
    subject: `[Test] ${rendered.subject}`,
    text: rendered.text,
    html: rendered.html,
  });
  return json({ sent: [callerEmail] });
}
