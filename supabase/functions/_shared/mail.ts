// Outgoing mail (SPEC §7): SMTP (MailDev locally; POSTBOX_SMTP_*) or one HTTP email API
// (POSTBOX_MAIL_API_URL + POSTBOX_MAIL_API_KEY, a Resend-style JSON POST), chosen by environment.
import { nodemailer, qp, SMTPConnection } from './deps.ts';
import {
  composedMessage,
  headerLine,
  isHeaderSafe,
  mailDate,
  mimeMessage,
  verbatimSubject,
  type Composer,
  type FinishedMessage,
  type OutgoingMail,
} from './mail-mime.ts';
import { smtpPool, type SmtpConnection } from './smtp-pool.ts';

export type { OutgoingMail };

export interface SentMail {
  messageId: string;
}

/** A temporary failure (SMTP 4xx, timeouts, HTTP 429/5xx): worth retrying later. */
export class TemporaryMailError extends Error {}

type Transport = (mail: OutgoingMail) => Promise<SentMail>;
let transport: Transport | null = null;

/** From, Reply-To and Subject as nodemailer encodes them (non-ASCII names, long subjects), and the envelope sender. */
interface SenderHead {
  lines: string[];
  envelopeFrom: string;
}

const textEncoder = new TextEncoder();
const ADDR_SPEC = /^[^\s<>(),;:"@]+@[^\s<>(),;:"@]+$/;
const SENDER_HEADERS = new Set(['from', 'reply-to', 'subject']);

/**
 * The SMTP transport writes the MIME text itself (mail-mime.ts) and hands the finished bytes to a
 * pool of nodemailer's SMTP connections (smtp-pool.ts): composing with nodemailer costs about a
 * millisecond of CPU per message in its streams, which a campaign of 100,000 pays in full on one
 * thread. nodemailer still encodes what needs its rules (From, Reply-To and Subject, once per
 * distinct sender and subject) and composes whole any message with something unusual (a non-ASCII
 * address or header value); that text goes through the same pool.
 */
function smtpTransport(): Transport {
  const port = Number(Deno.env.get('POSTBOX_SMTP_PORT') ?? '54325');
  const user = Deno.env.get('POSTBOX_SMTP_USER');
  const connectionOptions = {
    host: Deno.env.get('POSTBOX_SMTP_HOST') ?? '127.0.0.1',
    port,
    secure: (Deno.env.get('POSTBOX_SMTP_SECURE') ?? (port === 465 ? 'true' : 'false')) === 'true',
    connectionTimeout: 10_000,
    socketTimeout: 20_000,
  };
  const pool = smtpPool({
    create: () => new SMTPConnection(connectionOptions) as unknown as SmtpConnection,
    auth: user ? { user, pass: Deno.env.get('POSTBOX_SMTP_PASSWORD') ?? '' } : undefined,
    maxConnections: Number(Deno.env.get('POSTBOX_SMTP_MAX_CONNECTIONS') ?? 16),
    maxMessages: 100,
  });
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: '\r\n',
  }) as unknown as Composer;
  const heads = new Map<string, Promise<SenderHead>>();
  const boundaryPrefix = crypto.randomUUID().replace(/-/g, '');
  let boundaryCount = 0;

  const senderHead = (mail: OutgoingMail): Promise<SenderHead> => {
    const key = JSON.stringify([mail.from, mail.replyTo ?? null, mail.subject]);
    let head = heads.get(key);
    if (!head) {
      if (heads.size >= 100) heads.delete(heads.keys().next().value!);
      head = composer
        .sendMail({ from: mail.from, replyTo: mail.replyTo, subject: mail.subject, text: '' })
        .then((info) => {
          const text = String(info.message).split('\r\n\r\n')[0]!;
          // Header fields with their folded continuation lines, only the sender's three.
          const fields = text.split(/\r\n(?![ \t])/);
          const lines = fields.filter((f) => SENDER_HEADERS.has(f.split(':')[0]!.toLowerCase()));
          return { lines, envelopeFrom: String(info.envelope.from ?? '') };
        });
      head.catch(() => heads.delete(key));
      heads.set(key, head);
    }
    return head;
  };

  /** The finished MIME text, or null when the message needs nodemailer's own composer. */
  const raw = async (mail: OutgoingMail): Promise<FinishedMessage | null> => {
    const extra = Object.entries(mail.headers ?? {});
    if (
      !ADDR_SPEC.test(mail.to) ||
      !isHeaderSafe(mail.to) ||
      (mail.messageId !== undefined && !isHeaderSafe(mail.messageId)) ||
      extra.some(([name, value]) => !/^[A-Za-z0-9-]+$/.test(name) || !isHeaderSafe(value))
    )
      return null;
    // A personalised subject (`{{ subscriber.first_name }}`) differs from reader to reader: composing
    // it with nodemailer per message costs about as much as the rest of the message. A subject that
    // nodemailer would write unchanged on one line is written here; only the others are composed
    // (and kept, per distinct subject).
    const subjectLine = verbatimSubject(mail.subject);
    const head = await senderHead(subjectLine ? { ...mail, subject: '' } : mail);
    if (!head.envelopeFrom || !isHeaderSafe(head.envelopeFrom)) return null;
    const domain = head.envelopeFrom.split('@').pop() || 'localhost';
    const messageId = mail.messageId ?? `<${crypto.randomUUID()}@${domain}>`;
    const headers = [
      ...extra.map(([name, value]) => headerLine(name, value)),
      ...head.lines,
      ...(subjectLine ? [subjectLine] : []),
      `To: ${mail.to}`,
      `Message-ID: ${messageId}`,
      `Date: ${mailDate(new Date())}`,
    ];
    const boundaryId = `${boundaryPrefix}_${(boundaryCount++).toString(36)}`;
    return {
      message: textEncoder.encode(
        mimeMessage(qp, { headers, text: mail.text, html: mail.html, boundaryId }),
      ),
      envelope: { from: head.envelopeFrom, to: [mail.to] },
      messageId,
    };
  };

  return async (mail) => {
    try {
      const finished = (await raw(mail)) ?? (await composedMessage(composer, mail));
      await pool.send(finished.envelope, finished.message);
      return { messageId: finished.messageId };
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
