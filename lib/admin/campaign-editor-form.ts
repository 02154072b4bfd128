// The campaign editor's rules (SPEC §3–§5), shared by the page and its tests: the form, checks
// before a save or a send, a slug from the subject, schedule times, progress, and database
// refusals placed at their field.
import type { Tables, TablesUpdate } from '../database.types';
import { checkEmail } from '../email';
import { toQueryError } from '../use-query';
import { slugify } from './list-form';

export type CampaignRow = Tables<'campaigns'>;
export type CampaignStatus = 'draft' | 'scheduled' | 'sending' | 'paused' | 'sent' | 'cancelled';

export const SUBJECT_MAX = 200;
export const PREHEADER_MAX = 200;
export const NAME_MAX = 200;
export const FROM_NAME_MAX = 100;
/** SPEC §5: the Markdown body is at most 512 KB (bytes of UTF-8, as octet_length counts). */
export const BODY_MAX_BYTES = 512 * 1024;
/** campaigns.slug allows 96 characters. */
export const CAMPAIGN_SLUG_MAX = 96;
const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** The name a new draft gets until the user names it (the column must not be blank). */
export const NEW_CAMPAIGN_NAME = 'Untitled campaign';

export interface CampaignForm {
  name: string;
  subject: string;
  preheader: string;
  fromName: string;
  fromEmail: string;
  archive: boolean;
  slug: string;
  bodyMd: string;
}

export type CampaignField = keyof CampaignForm | 'lists' | 'at' | 'emails';
export type CampaignErrors = Partial<Record<CampaignField, string>>;

export function formFromCampaign(row: CampaignRow): CampaignForm {
  return {
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    fromName: row.from_name ?? '',
    fromEmail: row.from_email ?? '',
    archive: row.archive,
    slug: row.slug ?? '',
    bodyMd: row.body_md,
  };
}

/** "Our May update: 3 new things!" → "our-may-update-3-new-things" (the list slug rules, longer). */
export function slugFromSubject(subject: string): string {
  return slugify(subject, CAMPAIGN_SLUG_MAX);
}

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The slug that will be stored: the typed one, else one made from the subject (archive only). */
export function effectiveSlug(form: CampaignForm): string {
  return form.slug.trim() || (form.archive ? slugFromSubject(form.subject) : '');
}

/**
 * Checks for a save (`send: false`: an empty subject is fine in a draft) or before a test, a
 * schedule or a send (`send: true`: the subject is required, as send-campaign requires it).
 */
export function validateCampaign(
  form: CampaignForm,
  options: { send?: boolean } = {},
): CampaignErrors {
  const errors: CampaignErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = 'Enter a name.';
  else if (name.length > NAME_MAX) errors.name = `Use at most ${NAME_MAX} characters.`;
  if (form.subject.length > SUBJECT_MAX) errors.subject = `Use at most ${SUBJECT_MAX} characters.`;
  else if (options.send && !form.subject.trim()) errors.subject = 'Enter a subject.';
  if (form.preheader.length > PREHEADER_MAX) {
    errors.preheader = `Use at most ${PREHEADER_MAX} characters.`;
  }
  if (form.fromName.length > FROM_NAME_MAX) {
    errors.fromName = `Use at most ${FROM_NAME_MAX} characters.`;
  }
  if (form.fromEmail.trim() && !checkEmail(form.fromEmail).ok) {
    errors.fromEmail = 'Enter a valid email address.';
  }
  const slug = effectiveSlug(form);
  if (form.archive && !slug) {
    errors.slug = 'Enter a slug, or a subject to make one from.';
  } else if (slug && slug.length > CAMPAIGN_SLUG_MAX) {
    errors.slug = `Use at most ${CAMPAIGN_SLUG_MAX} characters.`;
  } else if (slug && !SLUG_PATTERN.test(slug)) {
    errors.slug = 'Use lower-case letters, digits and single hyphens between them (e.g. may-news).';
  }
  if (byteLength(form.bodyMd) > BODY_MAX_BYTES) {
    errors.bodyMd = 'The body may be at most 512 KB.';
  }
  return errors;
}

export function hasErrors(errors: CampaignErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** The content columns a client may write (the grant on campaigns), trimmed as stored. */
export function campaignValues(form: CampaignForm): TablesUpdate<'campaigns'> {
  const fromEmail = form.fromEmail.trim();
  const checked = fromEmail ? checkEmail(fromEmail) : null;
  return {
    name: form.name.trim(),
    subject: form.subject,
    preheader: form.preheader,
    from_name: form.fromName.trim() || null,
    from_email: checked?.ok ? checked.email : fromEmail || null,
    archive: form.archive,
    slug: effectiveSlug(form) || null,
    body_md: form.bodyMd,
  };
}

export interface FieldError {
  field: CampaignField | null;
  message: string;
}

/** Maps a PostgREST refusal (`code` is the SQLSTATE) onto the editor. */
export function campaignWriteError(error: { code?: string; message?: string }): FieldError {
  const message = error.message ?? '';
  switch (error.code) {
    case '23505':
      return { field: 'slug', message: 'Another campaign uses this slug. Choose another.' };
    case '23514':
      if (message.includes('slug')) return { field: 'slug', message: 'That slug is not valid.' };
      if (message.includes('from_email')) {
        return { field: 'fromEmail', message: 'Enter a valid email address.' };
      }
      if (message.includes('subject')) {
        return { field: 'subject', message: `Use at most ${SUBJECT_MAX} characters.` };
      }
      if (message.includes('body_md')) {
        return { field: 'bodyMd', message: 'The body may be at most 512 KB.' };
      }
      if (message.includes('name')) return { field: 'name', message: 'Enter a name.' };
      return { field: null, message: 'The database refused these values.' };
    case 'P0001':
      return { field: null, message: message.replace(/^postbox:[a-z_]+:\s*/, '') };
    case '42501':
      return { field: null, message: 'You do not have permission to do that.' };
    default:
      return {
        field: null,
        message: message
          ? `Saving failed: ${toQueryError(error).message}`
          : 'We could not reach the server. Check your connection and try again.',
      };
  }
}

/** `datetime-local` value → ISO time, or an error when it is empty, unreadable or not future. */
export function scheduleTime(
  local: string,
  now: number = Date.now(),
): { ok: true; at: string } | { ok: false; message: string } {
  if (!local) return { ok: false, message: 'Choose a date and time.' };
  // A datetime-local value has no zone: Date reads "YYYY-MM-DDTHH:mm" as local time.
  const time = new Date(local).getTime();
  if (Number.isNaN(time)) return { ok: false, message: 'Choose a date and time.' };
  if (time <= now) return { ok: false, message: 'Choose a time in the future.' };
  return { ok: true, at: new Date(time).toISOString() };
}

/** The value for `<input type="datetime-local">` of a time, in the browser's zone. */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

export interface Progress {
  done: number;
  total: number;
  /** 0–100, whole numbers; 100 once the campaign is sent. */
  percent: number;
}

/** sent + failed out of recipients; a sent campaign is complete whatever the counters say. */
export function campaignProgress(
  row: Pick<CampaignRow, 'status' | 'sent' | 'failed' | 'recipients'>,
): Progress {
  const total = Math.max(row.recipients, 0);
  const done = Math.min(row.sent + row.failed, total);
  if (row.status === 'sent') return { done, total, percent: 100 };
  return { done, total, percent: total ? Math.floor((done / total) * 100) : 0 };
}

/** `![alt](<url>)`: angle brackets keep spaces and parentheses in the URL from ending it. */
export function imageMarkdown(alt: string, url: string): string {
  const safeAlt = alt.replace(/[[\]\\]/g, '').trim();
  return `![${safeAlt}](<${url.replace(/[<>]/g, encodeURIComponent)}>)`;
}

/** Inserts `text` into `value` at the selection, on a line of its own; returns the caret after. */
export function insertAt(
  value: string,
  start: number,
  end: number,
  text: string,
): { value: string; caret: number } {
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before && !before.endsWith('\n') ? '\n\n' : '';
  const trail = after && !after.startsWith('\n') ? '\n\n' : '';
  const inserted = `${lead}${text}${trail}`;
  return { value: before + inserted + after, caret: before.length + lead.length + text.length };
}

/**
 * The row a new campaign stands on until its first save creates it (the editor needs a status and
 * counters to show): a draft with no id, nothing sent.
 */
export function unsavedCampaignRow(form: CampaignForm): CampaignRow {
  const now = new Date().toISOString();
  return {
    id: '',
    name: form.name,
    subject: form.subject,
    preheader: form.preheader,
    body_md: form.bodyMd,
    body_html: '',
    from_name: null,
    from_email: null,
    archive: false,
    slug: null,
    status: 'draft',
    scheduled_at: null,
    started_at: null,
    finished_at: null,
    recipients: 0,
    sent: 0,
    failed: 0,
    deferred: 0,
    created_by: null,
    created_at: now,
    updated_at: now,
  };
}
