// The MIME of outgoing mail as mail.ts builds it (supabase/functions/_shared/mail-mime.ts), read back by
// mailparser (what MailDev uses): every text survives quoted-printable exactly, no line is longer
// than RFC 2045 allows, and the headers arrive as written.
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import * as qp from 'nodemailer/lib/qp';
import { describe, expect, it } from 'vitest';
import {
  headerLine,
  isHeaderSafe,
  mailDate,
  mimeMessage,
  quotedPrintable as encodeWith,
  verbatimSubject,
} from '../../supabase/functions/_shared/mail-mime';

const quotedPrintable = (text: string) => encodeWith(qp, text);

/** Line breaks as mailparser hands them back (a lone CR becomes one too). */
const lf = (text: string) => text.replace(/\r\n?/g, '\n');

async function roundTrip(text: string, html?: string) {
  const raw = mimeMessage(qp, {
    headers: ['From: news@example.com', 'To: ada@example.com', 'Subject: Hi'],
    text,
    html,
    boundaryId: 'test_1',
  });
  return { raw, parsed: await simpleParser(raw) };
}

/** A seeded generator, so a failure names a case that can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '=',
  '.',
  '..',
  'a',
  'word ',
  'ü',
  'é',
  '—',
  '😀',
  '中文',
  'x'.repeat(80),
  '=3D',
  '<a href="https://example.com/?a=1&b=2">',
  '\u00a0',
];

describe('quoted-printable', () => {
  it('keeps plain words as they are and encodes =, controls and non-ASCII', () => {
    expect(quotedPrintable('Hello, world')).toBe('Hello, world');
    expect(quotedPrintable('a=b')).toBe('a=3Db');
    expect(quotedPrintable('ü😀')).toBe('=C3=BC=F0=9F=98=80');
    expect(quotedPrintable('bell\x07')).toBe('bell=07');
  });

  it('encodes a space or tab before a line break or at the end, and writes CRLF line breaks', () => {
    expect(quotedPrintable('a \nb\t\r\nc ')).toBe('a=20\r\nb=09\r\nc=20');
    expect(quotedPrintable('lone\rcr')).toBe('lone\r\ncr');
  });

  it('breaks long lines softly at 76 characters, never inside an =XX group or a character', () => {
    const encoded = quotedPrintable(`${'x'.repeat(74)}ü${'y'.repeat(200)}😀`);
    const lines = encoded.split('\r\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(76);
    for (const line of lines.slice(0, -1)) expect(line.endsWith('=')).toBe(true);
    expect(lines[0]).toBe(`${'x'.repeat(74)}=`);
    expect(lines[1]!.startsWith('=C3=BCy')).toBe(true);
    expect(encoded).toContain('=F0=9F=98=80');
  });

  it('survives a parser for 300 random texts (text and HTML parts)', async () => {
    const next = random(5);
    for (let n = 0; n < 300; n++) {
      let text = '';
      const length = Math.floor(next() * 40);
      for (let i = 0; i < length; i++) text += PIECES[Math.floor(next() * PIECES.length)];
      text = `start ${text} end`; // mailparser trims the outer whitespace of a part
      const { raw, parsed } = await roundTrip(text, `<p>${text}</p>`);
      expect(lf(parsed.text ?? ''), `case ${n}: ${JSON.stringify(text)}`).toBe(lf(text));
      expect(lf(parsed.html || ''), `case ${n}`).toBe(lf(`<p>${text}</p>`));
      for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);
    }
  });
});

describe('the message', () => {
  it('is multipart/alternative with a text and an HTML part, and the given headers', async () => {
    const oneClick = `https://example.com/functions/v1/unsubscribe?token=${'t'.repeat(180)}.sig`;
    const raw = mimeMessage(qp, {
      headers: [
        headerLine(
          'List-Unsubscribe',
          `<${oneClick}>, <mailto:news@example.com?subject=unsubscribe>`,
        ),
        headerLine('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'),
        'From: "Postbox" <news@example.com>',
        'To: ada@example.com',
        'Message-ID: <c.s@example.com>',
        `Date: ${mailDate(new Date('2026-11-22T10:00:00Z'))}`,
      ],
      text: 'Hello\n\nUnsubscribe: https://example.com/unsubscribe/?token=abc',
      html: '<p>Hello</p>',
      boundaryId: 'abc_1',
    });
    const parsed = await simpleParser(raw);
    expect(parsed.headers.get('list')).toMatchObject({
      unsubscribe: { url: oneClick, mail: 'news@example.com?subject=unsubscribe' },
    });
    expect(parsed.headerLines).toContainEqual({
      key: 'list-unsubscribe-post',
      line: 'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    });
    expect(parsed.messageId).toBe('<c.s@example.com>');
    expect(parsed.date?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(parsed.to).toMatchObject({ text: 'ada@example.com' });
    expect(parsed.from).toMatchObject({
      value: [{ name: 'Postbox', address: 'news@example.com' }],
    });
    expect(lf(parsed.text ?? '')).toBe(
      'Hello\n\nUnsubscribe: https://example.com/unsubscribe/?token=abc',
    );
    expect(parsed.html).toBe('<p>Hello</p>');
    expect(raw).toContain('Content-Type: multipart/alternative; boundary="=_pb_abc_1"');
  });

  it('is a single text/plain part without HTML', async () => {
    const { raw, parsed } = await roundTrip('Just text');
    expect(raw).toContain('Content-Type: text/plain; charset=utf-8');
    expect(raw).not.toContain('multipart');
    expect(parsed.text?.trim()).toBe('Just text');
    expect(parsed.html).toBe(false);
  });

  it('folds a long list header between items and leaves short ones on one line', () => {
    expect(headerLine('List-Id', '<news.example.com>')).toBe('List-Id: <news.example.com>');
    const long = headerLine(
      'List-Unsubscribe',
      `<https://x.test/${'a'.repeat(90)}>, <mailto:a@b.c>`,
    );
    expect(long).toBe(
      `List-Unsubscribe:\r\n <https://x.test/${'a'.repeat(90)}>,\r\n <mailto:a@b.c>`,
    );
  });

  it('writes only printable ASCII header values itself', () => {
    expect(isHeaderSafe('<https://example.com/?token=abc>')).toBe(true);
    expect(isHeaderSafe('Grüße')).toBe(false);
    expect(isHeaderSafe('a\r\nBcc: someone@example.com')).toBe(false);
  });
});

describe('verbatimSubject', () => {
  // What nodemailer itself writes for a subject, the header mail.ts otherwise takes from it.
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: '\r\n',
  });
  const nodemailerSubject = async (subject: string) => {
    const info = await composer.sendMail({ from: 'news@example.com', subject, text: '' });
    const head = String(info.message).split('\r\n\r\n')[0]!;
    return head.split(/\r\n(?![ \t])/).find((line) => /^subject:/i.test(line)) ?? null;
  };

  it('writes exactly what nodemailer writes, or declines', async () => {
    const subjects = [
      'Weekly news for Ada',
      'Weekly news for you',
      'a'.repeat(66),
      'a'.repeat(67),
      'Long words: ' + 'x'.repeat(70),
      'Spaces at the end  ',
      '  leading',
      'Quote "this"',
      'Zoë',
      'Encoded =?utf-8?Q?x?=',
      'Tab\there',
      '',
      '   ',
      '100% {off} <now> & [then] ~!',
    ];
    for (const subject of subjects) {
      const line = verbatimSubject(subject);
      if (line !== null) expect(line).toBe(await nodemailerSubject(subject));
    }
    expect(verbatimSubject('Weekly news for Ada')).toBe('Subject: Weekly news for Ada');
    // Declined: what nodemailer encodes, folds or drops.
    for (const subject of ['Zoë', 'Quote "this"', '=?x', 'a'.repeat(67), '', '  ', 'Tab\there'])
      expect(verbatimSubject(subject)).toBeNull();
  });
});
