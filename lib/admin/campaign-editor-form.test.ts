// The campaign editor's rules: slug from the subject, checks for save and send, values written,
// database refusals at their field, schedule times, progress and image insertion.
import { describe, expect, it } from 'vitest';
import {
  BODY_MAX_BYTES,
  campaignProgress,
  campaignValues,
  campaignWriteError,
  imageMarkdown,
  insertAt,
  scheduleTime,
  slugFromSubject,
  validateCampaign,
  type CampaignForm,
} from './campaign-editor-form';
import { previewCampaign } from './campaign-editor-preview';

const form = (over: Partial<CampaignForm> = {}): CampaignForm => ({
  name: 'May issue',
  subject: 'Hello May',
  preheader: '',
  fromName: '',
  fromEmail: '',
  archive: false,
  slug: '',
  bodyMd: 'Hi',
  ...over,
});

describe('slugFromSubject', () => {
  it('lower-cases, drops accents and joins words with single hyphens', () => {
    expect(slugFromSubject('Our May update: 3 new things!')).toBe('our-may-update-3-new-things');
    expect(slugFromSubject('  Crème brûlée — Édition #2 ')).toBe('creme-brulee-edition-2');
    expect(slugFromSubject('!!!')).toBe('');
  });
  it('keeps at most 96 characters and never ends with a hyphen', () => {
    const slug = slugFromSubject(`${'a'.repeat(95)} b`);
    expect(slug.length).toBeLessThanOrEqual(96);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe('validateCampaign', () => {
  it('accepts a draft with an empty subject but not a send', () => {
    expect(validateCampaign(form({ subject: '' }))).toEqual({});
    expect(validateCampaign(form({ subject: ' ' }), { send: true }).subject).toBe(
      'Enter a subject.',
    );
  });
  it('limits subject to 200 characters, needs a name', () => {
    expect(validateCampaign(form({ subject: 'x'.repeat(201) })).subject).toMatch(/200/);
    expect(validateCampaign(form({ subject: 'x'.repeat(200) }))).toEqual({});
    expect(validateCampaign(form({ name: '  ' })).name).toBe('Enter a name.');
  });
  it('checks the sender override address', () => {
    expect(validateCampaign(form({ fromEmail: 'nope' })).fromEmail).toMatch(/valid email/);
    expect(validateCampaign(form({ fromEmail: ' News@Example.com ' }))).toEqual({});
  });
  it('checks the slug, and makes one from the subject for the archive', () => {
    expect(validateCampaign(form({ slug: 'Bad Slug' })).slug).toMatch(/lower-case/);
    expect(validateCampaign(form({ slug: 'a--b' })).slug).toMatch(/lower-case/);
    expect(validateCampaign(form({ archive: true }))).toEqual({});
    expect(campaignValues(form({ archive: true })).slug).toBe('hello-may');
    expect(validateCampaign(form({ archive: true, subject: '' })).slug).toMatch(/Enter a slug/);
    expect(campaignValues(form({ archive: false })).slug).toBeNull();
  });
  it('limits the body to 512 KB of UTF-8', () => {
    expect(validateCampaign(form({ bodyMd: 'a'.repeat(BODY_MAX_BYTES) }))).toEqual({});
    // "é" is two bytes: half as many characters already exceed the limit.
    expect(validateCampaign(form({ bodyMd: 'é'.repeat(BODY_MAX_BYTES / 2 + 1) })).bodyMd).toMatch(
      /512 KB/,
    );
  });
});

describe('campaignValues', () => {
  it('writes only content columns, trimmed, with empty overrides as null', () => {
    expect(campaignValues(form({ name: ' N ', fromEmail: ' A@Example.COM ' }))).toEqual({
      name: 'N',
      subject: 'Hello May',
      preheader: '',
      from_name: null,
      from_email: 'a@example.com',
      archive: false,
      slug: null,
      body_md: 'Hi',
    });
  });
});

describe('campaignWriteError', () => {
  it('places refusals at their field', () => {
    expect(campaignWriteError({ code: '23505', message: 'dup campaigns_slug_key' }).field).toBe(
      'slug',
    );
    expect(
      campaignWriteError({ code: '23514', message: 'violates check campaigns_from_email_check' })
        .field,
    ).toBe('fromEmail');
    expect(
      campaignWriteError({
        code: 'P0001',
        message: 'postbox:conflict: Only drafts can be edited.',
      }),
    ).toEqual({ field: null, message: 'Only drafts can be edited.' });
  });
});

describe('scheduleTime', () => {
  const now = new Date('2026-11-22T12:00:00Z').getTime();
  it('needs a time in the future', () => {
    expect(scheduleTime('', now)).toEqual({ ok: false, message: 'Choose a date and time.' });
    expect(scheduleTime('2020-01-01T10:00', now)).toEqual({
      ok: false,
      message: 'Choose a time in the future.',
    });
    const later = scheduleTime('2030-01-01T10:00', now);
    expect(later.ok && new Date(later.at).getTime()).toBe(new Date('2030-01-01T10:00').getTime());
  });
});

describe('campaignProgress', () => {
  it('counts sent and failed out of recipients, 100 % once sent', () => {
    expect(campaignProgress({ status: 'sending', sent: 3, failed: 1, recipients: 8 })).toEqual({
      done: 4,
      total: 8,
      percent: 50,
    });
    expect(campaignProgress({ status: 'sent', sent: 7, failed: 1, recipients: 8 }).percent).toBe(
      100,
    );
    expect(campaignProgress({ status: 'draft', sent: 0, failed: 0, recipients: 0 }).percent).toBe(
      0,
    );
  });
});

describe('image insertion', () => {
  it('writes an image with the URL in angle brackets on its own paragraph', () => {
    const md = imageMarkdown('A [cat]', 'https://x.test/media/a b.png');
    expect(md).toBe('![A cat](<https://x.test/media/a b.png>)');
    expect(insertAt('Hello world', 5, 5, md)).toEqual({
      value: `Hello\n\n${md}\n\n world`,
      caret: 7 + md.length,
    });
    expect(insertAt('', 0, 0, md)).toEqual({ value: md, caret: md.length });
  });
  it('renders in the preview as an image of the sanitised body', () => {
    const preview = previewCampaign(
      {
        subject: '<b>Hi</b>',
        preheader: '',
        fromName: '',
        bodyMd: `${imageMarkdown('cat', 'https://x.test/cat.png')}\n\n<script>alert(1)</script>`,
      },
      {
        settings: { site_name: 'News', postal_address: '' },
        siteUrl: 'https://news.example.com',
        email: 'me@example.com',
      },
    );
    if (!preview.ok) throw new Error(preview.error);
    expect(preview.html).toContain('<img src="https://x.test/cat.png" alt="cat"');
    expect(preview.html).toContain('<title>&lt;b&gt;Hi&lt;/b&gt;</title>');
    expect(preview.html).not.toContain('alert');
  });
});
