// Outgoing mail (SPEC §7): SMTP (MailDev locally; POSTBOX_SMTP_*) or one HTTP email API
// (POSTBOX_MAIL_API_URL + POSTBOX_MAIL_API_KEY, a Resend-style JSON POST), chosen by environment.
import { nodemailer } from './deps.ts';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  messageId?: string;
}

export interface SentMail {
  messageId: string;
}

/** A temporary failure (SMTP 4xx, timeouts, HTTP 429/5xx): worth retrying later. */
export class TemporaryMailError extends Error {}

type Transport = (mail: OutgoingMail) => Promise<SentMail>;
let transport: Transport | null = null;

function smtpTransport(): Transport {
  const port = Number(Deno.env.get('POSTBOX_SMTP_PORT') ?? '54325');
  const user = Deno.env.get('POSTBOX_SMTP_USER');
  const mailer = nodemailer.createTransport({
    host: Deno.env.get('POSTBOX_SMTP_HOST') ?? '127.0.0.1',
    port,
    secure: (Deno.env.get('POSTBOX_SMTP_SECURE') ?? (port === 465 ? 'true' : 'false')) === 'true',
    auth: user ? { user, pass: Deno.env.get('POSTBOX_SMTP_PASSWORD') ?? '' } : undefined,
    pool: true,
    maxConnections: Number(Deno.env.get('POSTBOX_SMTP_MAX_CONNECTIONS') ?? 16),
    connectionTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return async (mail) => {
    try {
      const info = await mailer.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        replyTo: mail.replyTo,
        headers: mail.headers,
        messageId: mail.messageId,
      });
      return { messageId: String(info.messageId ?? mail.messageId ?? '') };
    } catch (error) {
      const code = Number((error as { responseCode?: number }).responseCode ?? 0);
      const kind = String((error as { code?: string }).code ?? '');
      if (
        (code >= 400 && code < 500) ||
        ['ETIMEDOUT', 'ECONNECTION', 'ESOCKET', 'ECONNREFUSED'].includes(kind)
      ) {
        throw new TemporaryMailError(String((error as Error).message));
      }
      throw error;
    }
  };
}

function httpTransport(url: string, apiKey: string): Transport {
  return async (mail) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        from: mail.from,
        to: [mail.to],
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        reply_to: mail.replyTo,
        headers: { ...mail.headers, ...(mail.messageId ? { 'Message-ID': mail.messageId } : {}) },
      }),
    });
    const body = await response.text();
    if (response.status === 429 || response.status >= 500)
      throw new TemporaryMailError(`HTTP ${response.status}: ${body}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${body}`);
    const id = (() => {
      try {
        return String(JSON.parse(body).id ?? '');
      } catch {
        return '';
      }
    })();
    return { messageId: mail.messageId ?? id };
  };
}

/** Sends one message through the configured transport. */
export function sendMail(mail: OutgoingMail): Promise<SentMail> {
  if (!transport) {
    const apiUrl = Deno.env.get('POSTBOX_MAIL_API_URL');
    transport = apiUrl
      ? httpTransport(apiUrl, Deno.env.get('POSTBOX_MAIL_API_KEY') ?? '')
      : smtpTransport();
  }
  return transport(mail);
}

/** `"Name" <address>` with the name quoted safely. */
export function formatAddress(name: string, address: string): string {
  const clean = name.replace(/[\r\n"\\]/g, '').trim();
  return clean ? `"${clean}" <${address}>` : address;
}
