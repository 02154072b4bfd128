// The MIME text of an outgoing message (SPEC §7), put together for the common case: a plain-text
// part and an optional HTML part, quoted-printable (nodemailer's encoder), with headers given ready
// to write. Import-free (the encoder is passed in), so unit tests check it against a real parser;
// mail.ts falls back to nodemailer's composer for anything these rules do not cover (see
// isHeaderSafe).

/** A header value written as is: printable ASCII and spaces only (no line breaks to inject). */
export function isHeaderSafe(value: string): boolean {
  return /^[\x20-\x7e]*$/.test(value);
}

/**
 * `Subject: …` exactly as nodemailer writes it when it writes the value unchanged: printable ASCII
 * without `"` (which it encodes) or `=?` (an encoded word's start), not blank (it drops the
 * header), and a line shorter than 76 characters (it folds longer ones). Otherwise null.
 */
export function verbatimSubject(subject: string): string | null {
  const line = `Subject: ${subject}`;
  return /^[\x20\x21\x23-\x7e]*$/.test(subject) &&
    subject.trim() !== '' &&
    !subject.includes('=?') &&
    line.length < 76
    ? line
    : null;
}

/**
 * `Name: value`, folded at the `, ` between list items (List-Unsubscribe's URLs) when the line is
 * longer than 78 characters; an item itself is never broken (a URL has nowhere to fold), which
 * RFC 5322 allows up to 998 characters a line.
 */
export function headerLine(name: string, value: string): string {
  const line = `${name}: ${value}`;
  if (line.length <= 78 || !value.includes(', ')) return line;
  return `${name}:\r\n ${value.split(', ').join(',\r\n ')}`;
}

/** RFC 5322 date-time in UTC, as `Sun, 22 Nov 2026 22:27:50 +0000`. */
export function mailDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

/** nodemailer's quoted-printable functions (`nodemailer/lib/qp`), passed in: this file imports nothing. */
export interface QpLib {
  encode(text: string): string;
  wrap(encoded: string, lineLength: number): string;
}

/**
 * RFC 2045 quoted-printable of a text's UTF-8 bytes by nodemailer's encoder: line breaks (LF, CR or
 * CRLF) become CRLF; `=`, controls, non-ASCII and a space or tab before a line break are encoded;
 * long lines get soft breaks at 76 characters.
 */
export function quotedPrintable(qp: QpLib, text: string): string {
  return qp.wrap(qp.encode(text.replace(/\r\n|\r|\n/g, '\r\n')), 76);
}

const PART_HEADERS = 'charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n';

/**
 * The whole message: `headers` (complete lines, without MIME-Version and Content-Type), then the
 * text part alone or text and HTML as multipart/alternative. The boundary starts with `=_`, which
 * quoted-printable output can never contain, so no body can end a part early.
 */
export function mimeMessage(
  qp: QpLib,
  parts: {
    headers: string[];
    text: string;
    html?: string;
    /** Makes the boundary unique to this message (letters, digits, `_` or `-`). */
    boundaryId: string;
  },
): string {
  const head = `${parts.headers.join('\r\n')}\r\nMIME-Version: 1.0\r\n`;
  if (parts.html === undefined)
    return `${head}Content-Type: text/plain; ${PART_HEADERS}${quotedPrintable(qp, parts.text)}\r\n`;
  const boundary = `=_pb_${parts.boundaryId}`;
  return (
    `${head}Content-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n` +
    `--${boundary}\r\nContent-Type: text/plain; ${PART_HEADERS}${quotedPrintable(qp, parts.text)}\r\n` +
    `--${boundary}\r\nContent-Type: text/html; ${PART_HEADERS}${quotedPrintable(qp, parts.html)}\r\n` +
    `--${boundary}--\r\n`
  );
}

/** A message to send, as the functions describe it (mail.ts sends it). */
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

/** A message ready for the SMTP pool: its bytes, envelope and Message-ID. */
export interface FinishedMessage {
  message: Uint8Array;
  envelope: { from: string; to: string[] };
  messageId: string;
}

/** What composedMessage uses of a nodemailer transport made with `{ streamTransport: true, buffer: true }`. */
export interface Composer {
  sendMail(mail: Record<string, unknown>): Promise<{
    message: unknown;
    envelope: { from: string | false; to: string[] };
    messageId: string;
  }>;
}

/**
 * The whole message as nodemailer composes it, for what mimeMessage's rules do not cover (a
 * non-ASCII address or header value): the same fields, encoded by nodemailer's rules.
 */
export async function composedMessage(
  composer: Composer,
  mail: OutgoingMail,
): Promise<FinishedMessage> {
  const info = await composer.sendMail({ ...mail });
  return {
    message: info.message as Uint8Array,
    envelope: { from: info.envelope.from || '', to: info.envelope.to },
    messageId: String(info.messageId || mail.messageId || ''),
  };
}
