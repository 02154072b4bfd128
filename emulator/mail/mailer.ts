// A small SMTP sender (nodemailer) other emulator services use to deliver mail to the mail catcher.
import { createTransport } from 'nodemailer';

export interface MailMessage {
  from?: string;
  to: string;
  subject: string;
  /** Plain-text part; every message carries one. */
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Default sender of emulator mail, like the `Supabase Auth <noreply@mail.app.supabase.io>` upstream. */
export const DEFAULT_FROM = 'Postbox <noreply@postbox.local>';

export function createMailer({ host, port }: { host: string; port: number }): Mailer {
  // Local catcher: plain SMTP, no TLS upgrade, no auth.
  const transport = createTransport({ host, port, secure: false, ignoreTLS: true });
  return {
    async send({ from = DEFAULT_FROM, to, subject, text, html, headers }) {
      await transport.sendMail({ from, to, subject, text, html, headers });
    },
  };
}
