// Auth's emails in Postbox's words and layout (sign-in link and code, invite, confirmation,
// recovery, email change, reauthentication), built from the Send Email Hook's payload. Pure: no
// environment, no I/O. The frame is the branded layout every Postbox email has (lib/email-render).
import { DEFAULT_ACCENT, safeAccent } from '../../../lib/email-render/accent.ts';
import { buttonHtml } from '../../../lib/email-render/body-styles.ts';
import type { Juice } from '../../../lib/email-render/inline-css.ts';
import { brandedLayout } from '../../../lib/email-render/layout.ts';

export type AuthEmailType =
  'magiclink' | 'signup' | 'invite' | 'recovery' | 'email_change' | 'reauthentication';

export const AUTH_EMAIL_TYPES: readonly AuthEmailType[] = [
  'magiclink',
  'signup',
  'invite',
  'recovery',
  'email_change',
  'reauthentication',
];

/** What of the settings row these emails show. */
export interface AuthMailSite {
  site_name: string;
  postal_address: string;
  accent_color?: string | null;
  /** The logo's public URL (lib/email-render/branding.ts), or null for the site name. */
  logo_url?: string | null;
}

/** The Send Email Hook's body (v0hooks.SendEmailInput), the fields used here. */
export interface SendEmailPayload {
  user: {
    email?: string;
    new_email?: string;
    user_metadata?: Record<string, unknown>;
  };
  email_data: {
    token: string;
    token_hash: string;
    redirect_to: string;
    email_action_type: string;
    site_url: string;
    token_new?: string;
    token_hash_new?: string;
  };
}

/** One email to write: who gets it, its code, and the link's token hash (empty: no link). */
export interface AuthEmail {
  type: AuthEmailType;
  to: string;
  code: string;
  link: string | null;
  /** Invites: from the user metadata invite-member gave Auth. */
  inviter: string | null;
  role: string | null;
  /** Email change: the address being confirmed. */
  newEmail: string | null;
}

export interface AuthMailContent {
  subject: string;
  text: string;
  html: string;
}

export function isAuthEmailType(value: unknown): value is AuthEmailType {
  return AUTH_EMAIL_TYPES.includes(value as AuthEmailType);
}

/** Auth's verify link (`<project>/auth/v1/verify?token=<hash>&type=…&redirect_to=…`). */
export function verifyLink(
  siteUrl: string,
  tokenHash: string,
  type: string,
  redirectTo: string,
): string {
  const query = new URLSearchParams({ token: tokenHash, type, redirect_to: redirectTo });
  return `${siteUrl.replace(/\/+$/, '')}/auth/v1/verify?${query.toString()}`;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * The emails one hook call asks for. An email change with secure change on (token_new set) is two:
 * the current address confirms with `token` and, as Auth fills the fields, `token_hash_new`; the new
 * address with `token_new` and `token_hash`. Otherwise one email to the address it is about.
 */
export function authEmailsFor(payload: SendEmailPayload): AuthEmail[] {
  const data = payload.email_data;
  const type = data.email_action_type;
  if (!isAuthEmailType(type)) throw new Error(`unsupported email_action_type "${type}"`);
  const meta = payload.user.user_metadata ?? {};
  const base = {
    type,
    inviter: type === 'invite' ? text(meta.invited_by_email) : null,
    role: type === 'invite' ? text(meta.role) : null,
    newEmail: type === 'email_change' ? text(payload.user.new_email) : null,
  };
  const link = (hash: string | undefined) =>
    hash ? verifyLink(data.site_url, hash, type, data.redirect_to) : null;
  const current = text(payload.user.email);
  if (type === 'email_change') {
    const fresh = text(payload.user.new_email);
    if (data.token_new && current && fresh) {
      return [
        { ...base, to: current, code: data.token, link: link(data.token_hash_new) },
        { ...base, to: fresh, code: data.token_new, link: link(data.token_hash) },
      ];
    }
    if (!fresh) throw new Error('email_change without user.new_email');
    return [{ ...base, to: fresh, code: data.token, link: link(data.token_hash) }];
  }
  if (!current) throw new Error('the user has no email address');
  // A reauthentication code is typed into the app; it has no link.
  const withLink = type === 'reauthentication' ? null : link(data.token_hash);
  return [{ ...base, to: current, code: data.token, link: withLink }];
}

/** What a role may do, in the words the team emails use ("an editor (writing campaigns …)"). */
export const ROLE_WORDS: Record<string, string> = {
  owner: 'an owner (everything, including settings and the team)',
  admin: 'an admin (lists, subscribers and sending campaigns)',
  editor: 'an editor (writing campaigns and sending tests)',
  viewer: 'a viewer (reading everything, changing nothing)',
};

/** The words of one Auth email (or of the team notice, which reads like one). */
export interface AuthLetter {
  subject: string;
  heading: string;
  /** Paragraphs before the button. */
  intro: string[];
  button: string | null;
  /** Paragraphs after the button and code. */
  after: string[];
}

function words(email: AuthEmail, site: string): AuthLetter {
  const codeNote = 'The link and the code work once, within an hour.';
  const linkNote = 'The link works once, within an hour.';
  switch (email.type) {
    case 'magiclink':
      return {
        subject: `Your sign-in link for ${site}`,
        heading: `Sign in to ${site}`,
        intro: ['Use the button to sign in. Open it in the browser where you asked for it.'],
        button: 'Sign in',
        after: [codeNote, 'If you did not ask to sign in, ignore this email: nothing happens.'],
      };
    case 'signup':
      return {
        subject: `Confirm your address for ${site}`,
        heading: 'Confirm your email address',
        intro: [`Confirm that this address is yours to finish signing in to ${site}.`],
        button: 'Confirm and sign in',
        after: [codeNote, 'If you did not ask for this, ignore this email: nothing happens.'],
      };
    case 'invite': {
      const who = email.inviter ?? 'An owner of the team';
      const role = email.role ? (ROLE_WORDS[email.role] ?? email.role) : null;
      return {
        subject: email.inviter
          ? `${email.inviter} invited you to the team at ${site}`
          : `You are invited to the team at ${site}`,
        heading: `Join the team at ${site}`,
        intro: [
          `${who} invited you to help run ${site}, a newsletter made with Postbox` +
            (role ? `, as ${role}.` : '.'),
          'Accept the invitation to sign in. There is no password to choose: next time, ' +
            'sign in on the login page with this address and we email you a link and a code.',
        ],
        button: 'Accept the invitation',
        after: [
          `The invitation works once, within an hour. If it has expired, ask ${email.inviter ?? 'the owner'} to invite you again.`,
          'If you do not know the sender, ignore this email: nothing happens unless you accept.',
        ],
      };
    }
    case 'recovery':
      return {
        subject: `Reset your password for ${site}`,
        heading: 'Reset your password',
        intro: ['Use the button to sign in and choose a new password.'],
        button: 'Reset password',
        after: [linkNote, 'If you did not ask for this, ignore this email: your password stays.'],
      };
    case 'email_change':
      return {
        subject: `Confirm your new email address for ${site}`,
        heading: 'Confirm the change of address',
        intro: [
          email.newEmail
            ? `Confirm that your sign-in address for ${site} changes to ${email.newEmail}.`
            : `Confirm the change of your sign-in address for ${site}.`,
        ],
        button: 'Confirm the change',
        after: [linkNote, 'If you did not ask for this, ignore this email: nothing changes.'],
      };
    case 'reauthentication':
      return {
        subject: `Your confirmation code for ${site}`,
        heading: 'Confirm it is you',
        intro: ['Enter this code where you were asked for it.'],
        button: null,
        after: [
          'The code works once, within an hour.',
          'If you did not ask for it, someone may know your password: change it.',
        ],
      };
  }
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * The frame of every Auth email: the branded layout with no subscriber links (Auth's emails go to
 * members and people signing in, not to a list), so its footer names the site and the address.
 */
export function authLayout(
  juice: Juice,
  site: AuthMailSite,
  parts: { title: string; preheader: string; bodyHtml: string },
): string {
  return brandedLayout(juice, site).document({
    ...parts,
    links: { unsubscribe: '', preferences: '', web: '' },
  });
}

function paragraph(value: string): string {
  return `<p style="margin:0 0 16px">${escapeHtml(value)}</p>`;
}

function codeBlock(code: string, label: string): string {
  return (
    `<p style="margin:0 0 8px">${escapeHtml(label)}</p>` +
    `<p style="margin:0 0 16px;font-size:28px;font-weight:700;letter-spacing:6px;` +
    `font-family:ui-monospace,Menlo,Consolas,monospace">${escapeHtml(code)}</p>`
  );
}

function button(site: AuthMailSite, label: string, href: string): string {
  return buttonHtml(
    escapeHtml(href),
    escapeHtml(label),
    safeAccent(site.accent_color ?? DEFAULT_ACCENT),
  );
}

// Where Postbox has a page that takes the code: the login page (a sign-in or a first confirmation,
// both `verifyOtp({type: 'email'})`), and wherever an app asks to reauthenticate (code only).
const CODE_TYPES: readonly AuthEmailType[] = ['magiclink', 'signup', 'reauthentication'];

/** Subject, plain text and HTML of one Auth email. */
export function renderAuthMail(
  juice: Juice,
  site: AuthMailSite,
  email: AuthEmail,
): AuthMailContent {
  const code = CODE_TYPES.includes(email.type) ? email.code : '';
  return renderAuthLetter(juice, site, words(email, site.site_name), {
    link: email.link,
    code,
    codeLabel: email.link
      ? 'On another device? Enter this code on the sign-in page instead:'
      : 'Your code:',
  });
}

/**
 * A letter in the Auth emails' shape: heading, the paragraphs before the button, the button (to
 * `link`), the code when there is one, the paragraphs after; the plain text says the same.
 */
export function renderAuthLetter(
  juice: Juice,
  site: AuthMailSite,
  w: AuthLetter,
  action: { link: string | null; code?: string; codeLabel?: string },
): AuthMailContent {
  const { link, code = '', codeLabel = '' } = action;
  const lines = [site.site_name, '', w.heading, '', ...w.intro.flatMap((p) => [p, ''])];
  if (link && w.button) lines.push(`${w.button}: ${link}`, '');
  if (code) lines.push(codeLabel, code, '');
  lines.push(...w.after.flatMap((p) => [p, '']));
  if (site.postal_address) lines.push('--', site.postal_address);
  const bodyHtml =
    `<h1 style="margin:0 0 16px;font-size:24px;line-height:32px;font-weight:700">${escapeHtml(w.heading)}</h1>` +
    w.intro.map(paragraph).join('') +
    (link && w.button ? button(site, w.button, link) : '') +
    (code ? codeBlock(code, codeLabel) : '') +
    w.after.map(paragraph).join('');
  return {
    subject: w.subject,
    text: `${lines.join('\n').trimEnd()}\n`,
    html: authLayout(juice, site, { title: w.subject, preheader: w.intro[0]!, bodyHtml }),
  };
}
