// The emails Auth sends (GoTrue's default templates): a verify link carrying the hashed token + the OTP.
import type { Mailer } from '../mail/mailer.js';

export type EmailKind = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change';

// GoTrue's default subjects and headings (internal/mailer/template.go).
const TEMPLATES: Record<EmailKind, { subject: string; heading: string; action: string }> = {
  signup: {
    subject: 'Confirm Your Signup',
    heading: 'Confirm your signup',
    action: 'Follow this link to confirm your user:',
  },
  invite: {
    subject: 'You have been invited',
    heading: 'You have been invited',
    action: 'You have been invited to create a user. Follow this link to accept the invite:',
  },
  magiclink: {
    subject: 'Your Magic Link',
    heading: 'Magic Link',
    action: 'Follow this link to login:',
  },
  recovery: {
    subject: 'Reset Your Password',
    heading: 'Reset Password',
    action: 'Follow this link to reset the password for your user:',
  },
  email_change: {
    subject: 'Confirm Email Change',
    heading: 'Confirm Change of Email',
    action: 'Follow this link to confirm the update of your email:',
  },
};

/** `${url}/auth/v1/verify?token=…&type=…&redirect_to=…`, as GoTrue's ConfirmationURL. */
export function verifyLink(
  authUrl: string,
  hashedToken: string,
  type: EmailKind,
  redirectTo: string,
): string {
  const q = new URLSearchParams({ token: hashedToken, type, redirect_to: redirectTo });
  return `${authUrl}/verify?${q.toString()}`;
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export async function sendAuthEmail(
  mailer: Mailer,
  kind: EmailKind,
  to: string,
  link: string,
  otp: string,
): Promise<void> {
  const t = TEMPLATES[kind];
  const text = `${t.heading}\n\n${t.action}\n${link}\n\nAlternatively, enter the code: ${otp}\n`;
  const html =
    `<h2>${escapeHtml(t.heading)}</h2>\n<p>${escapeHtml(t.action)}</p>\n` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(t.heading)}</a></p>\n` +
    `<p>Alternatively, enter the code: ${otp}</p>\n`;
  await mailer.send({ to, subject: t.subject, text, html });
}
