// The MIME text of an outgoing message (SPEC §7), put together by hand for the common case: a
// plain-text part and an optional HTML part, quoted-printable, with headers given ready to write.
// Import-free, so unit tests check it against a real parser; mail.ts falls back to nodemailer's
// composer for anything these rules do not cover (see isHeaderSafe).

/** A header value written as is: printable ASCII and spaces only (no line breaks to inject). */
export function isHeaderSafe(value: string): boolean {
  return /^[\x20-\x7e]*$/.test(value);
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

const HEX = '0123456789ABCDEF';
const hex = (byte: number) => `=${HEX[byte >> 4]}${HEX[byte & 15]}`;

/** The UTF-8 bytes of one code point, each as `=XX`. */
function encodedCodePoint(code: number): string {
  if (code < 0x80) return hex(code);
  if (code < 0x800) return hex(0xc0 | (code >> 6)) + hex(0x80 | (code & 63));
  if (code < 0x10000)
    return hex(0xe0 | (code >> 12)) + hex(0x80 | ((code >> 6) & 63)) + hex(0x80 | (code & 63));
  return (
    hex(0xf0 | (code >> 18)) +
    hex(0x80 | ((code >> 12) & 63)) +
    hex(0x80 | ((code >> 6) & 63)) +
    hex(0x80 | (code & 63))
  );
}

/** Content characters per line before a soft break: 76 with the `=` (RFC 2045 §6.7). */
const LINE = 75;

/**
 * RFC 2045 quoted-printable of a text's UTF-8 bytes. Line breaks (LF or CRLF) become CRLF; a lone
 * CR, `=`, controls and non-ASCII are encoded; a space or tab before a line break or at the end is
 * encoded so no transport can strip it; long lines get soft breaks, never inside an `=XX` group or
 * a character. Runs of plain characters are copied in slices: this runs for every message sent.
 */
export function quotedPrintable(text: string): string {
  const n = text.length;
  let out = '';
  let line = 0;
  let i = 0;
  while (i < n) {
    // A run of characters written as they are, up to the end of the line.
    const end = Math.min(n, i + LINE - line);
    let j = i;
    while (j < end) {
      const c = text.charCodeAt(j);
      if (c >= 33 && c <= 126 && c !== 61) j++;
      else if ((c === 32 || c === 9) && j + 1 < n) {
        const next = text.charCodeAt(j + 1);
        if (next === 10 || next === 13) break;
        j++;
      } else break;
    }
    if (j > i) {
      out += text.slice(i, j);
      line += j - i;
      i = j;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) {
      out += '\r\n';
      line = 0;
      i += c === 13 ? 2 : 1;
      continue;
    }
    let token: string;
    let width = 1;
    if (c >= 33 && c <= 126 && c !== 61)
      token = text[i]!; // the line was full
    else if (c === 32 || c === 9) {
      const next = text.charCodeAt(i + 1);
      token = i + 1 === n || next === 10 || next === 13 ? hex(c) : text[i]!;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        token = encodedCodePoint(0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00));
        width = 2;
      } else token = encodedCodePoint(0xfffd); // a lone surrogate has no UTF-8
    } else if (c >= 0xdc00 && c <= 0xdfff) token = encodedCodePoint(0xfffd);
    else token = encodedCodePoint(c);
    if (line + token.length > LINE) {
      out += '=\r\n';
      line = 0;
    }
    out += token;
    line += token.length;
    i += width;
  }
  return out;
}

const PART_HEADERS = 'charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n';

/**
 * The whole message: `headers` (complete lines, without MIME-Version and Content-Type), then the
 * text part alone or text and HTML as multipart/alternative. The boundary starts with `=_`, which
 * quoted-printable output can never contain, so no body can end a part early.
 */
export function mimeMessage(parts: {
  headers: string[];
  text: string;
  html?: string;
  /** Makes the boundary unique to this message (letters, digits, `_` or `-`). */
  boundaryId: string;
}): string {
  const head = `${parts.headers.join('\r\n')}\r\nMIME-Version: 1.0\r\n`;
  if (parts.html === undefined)
    return `${head}Content-Type: text/plain; ${PART_HEADERS}${quotedPrintable(parts.text)}\r\n`;
  const boundary = `=_pb_${parts.boundaryId}`;
  return (
    `${head}Content-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n` +
    `--${boundary}\r\nContent-Type: text/plain; ${PART_HEADERS}${quotedPrintable(parts.text)}\r\n` +
    `--${boundary}\r\nContent-Type: text/html; ${PART_HEADERS}${quotedPrintable(parts.html)}\r\n` +
    `--${boundary}--\r\n`
  );
}
