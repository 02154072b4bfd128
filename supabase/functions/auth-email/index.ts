// auth-email: Supabase Auth's Send Email Hook (config.toml [auth.hook.send_email]). Auth POSTs each
// email it would send (sign-in link and code, invite, confirmation, recovery, email change,
// reauthentication), signed with the hook's secret; this sends it in Postbox's words and layout
// (_shared/auth-mail.ts) through the project's mail transport. Auth turns any non-2xx answer into
// an error for its own caller, so a failed send fails the sign-in request instead of vanishing.
import {
  authEmailsFor,
  renderAuthMail,
  type AuthMailSite,
  type SendEmailPayload,
} from '../_shared/auth-mail.ts';
import { adminClient } from '../_shared/db.ts';
import juice from '../_shared/juice.ts';
import { env } from '../_shared/env.ts';
import { logoUrl } from '../../../lib/email-render/branding.ts';
import { AppError } from '../_shared/errors.ts';
import { json, readText, serve } from '../_shared/http.ts';
import { sendMail } from '../_shared/mail.ts';
import { senderFields, type MailSettings } from '../_shared/subscriber-mail.ts';
import { hookSecret, verifiedPayload } from './verify.ts';

/** Auth's payload is a user and a few tokens; 64 KB leaves room for large user metadata. */
const MAX_BODY = 64 * 1024;

/** Errors in the shape Auth reads from a hook (hookserrors: `{error: {http_code, message}}`). */
function refuse(status: number, message: string): Response {
  return json({ error: { http_code: status, message } }, status);
}

async function siteSettings(): Promise<MailSettings & AuthMailSite> {
  const { data, error } = await adminClient()
    .from('settings')
    .select(
      'site_name, sender_name, sender_email, reply_to, postal_address, accent_color, logo_path',
    )
    .single();
  if (error || !data) {
    console.error('auth-email: reading the settings failed', error);
    throw new AppError('internal');
  }
  const row = data as MailSettings;
  return { ...row, logo_url: logoUrl(env.supabaseUrl, row.logo_path) };
}

serve(['POST'], async (req) => {
  let body: string;
  try {
    body = await readText(req, MAX_BODY);
  } catch (error) {
    if (error instanceof AppError) return refuse(error.status, error.message);
    throw error;
  }
  const payload = verifiedPayload(body, req.headers, hookSecret()) as SendEmailPayload | null;
  if (!payload) return refuse(401, 'Invalid or expired webhook signature.');
  let emails;
  try {
    emails = authEmailsFor(payload);
  } catch (error) {
    return refuse(400, (error as Error).message);
  }
  const settings = await siteSettings();
  try {
    for (const email of emails) {
      const content = renderAuthMail(juice, settings, email);
      await sendMail({ ...senderFields(settings), to: email.to, ...content });
    }
  } catch (error) {
    console.error('auth-email: sending failed', error);
    return refuse(500, 'Sending the email failed.');
  }
  return json({});
});
