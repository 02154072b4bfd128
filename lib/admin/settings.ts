// The settings row in the admin (SPEC §3, §5, §6): the form's fields, the checks the database will
// make (repeated for speed), its refusals placed at the field, and the read and the owner's write.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '../database.types';
import { checkEmail } from '../email';
import { toQueryError, unwrap, type QueryError } from '../use-query';

export type Settings = Tables<'settings'>;

/** What the settings form edits (everything but the key and the timestamp). */
export type SettingsForm = Pick<
  Settings,
  | 'site_name'
  | 'tagline'
  | 'logo_path'
  | 'accent_color'
  | 'sender_name'
  | 'sender_email'
  | 'reply_to'
  | 'postal_address'
  | 'show_subscriber_count'
  | 'track_opens'
  | 'track_clicks'
>;
export type SettingsField = keyof SettingsForm;

export type FieldErrors = Partial<Record<SettingsField, string>>;

export function toForm(settings: Settings): SettingsForm {
  const { id: _id, updated_at: _updated, ...form } = settings;
  return form;
}

/** Length limits of the check constraints in 20261122100200_settings.sql. */
export const LIMITS = {
  site_name: 100,
  tagline: 200,
  sender_name: 100,
  postal_address: 300,
} as const;

/** Trims the text fields, turns an empty reply-to into null and lower-cases addresses. */
export function normalizeForm(form: SettingsForm): SettingsForm {
  const replyTo = (form.reply_to ?? '').trim();
  return {
    ...form,
    site_name: form.site_name.trim(),
    tagline: form.tagline.trim(),
    sender_name: form.sender_name.trim(),
    sender_email: form.sender_email.trim().toLowerCase(),
    reply_to: replyTo ? replyTo.toLowerCase() : null,
    postal_address: form.postal_address.trim(),
  };
}

/** The database's rules, checked before sending so mistakes show at once and at their field. */
export function validateForm(form: SettingsForm): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.site_name) errors.site_name = 'Enter a site name.';
  else if (form.site_name.length > LIMITS.site_name)
    errors.site_name = `Site name must be at most ${LIMITS.site_name} characters.`;
  if (form.tagline.length > LIMITS.tagline)
    errors.tagline = `Tagline must be at most ${LIMITS.tagline} characters.`;
  if (!form.sender_name) errors.sender_name = 'Enter a sender name.';
  else if (form.sender_name.length > LIMITS.sender_name)
    errors.sender_name = `Sender name must be at most ${LIMITS.sender_name} characters.`;
  if (!checkEmail(form.sender_email).ok) errors.sender_email = 'Enter a valid email address.';
  if (form.reply_to !== null && !checkEmail(form.reply_to).ok)
    errors.reply_to = 'Enter a valid email address, or leave it empty.';
  if (form.postal_address.length > LIMITS.postal_address)
    errors.postal_address = `Postal address must be at most ${LIMITS.postal_address} characters.`;
  return errors;
}

const FIELDS: readonly SettingsField[] = [
  'site_name',
  'tagline',
  'logo_path',
  'accent_color',
  'sender_name',
  'sender_email',
  'reply_to',
  'postal_address',
];

/**
 * A refused save as field errors where the database names a column (check constraints are named
 * `settings_<column>_check`), else under `form`. No row updated means the caller may not edit.
 */
export function saveErrorFor(error: QueryError): {
  field: SettingsField | 'form';
  message: string;
} {
  if (error.code === '23514') {
    const field = FIELDS.find((name) => error.message.includes(`settings_${name}_check`));
    if (field) {
      const message =
        field.endsWith('email') || field === 'reply_to'
          ? 'Enter a valid email address.'
          : 'This value is not allowed here.';
      return { field, message };
    }
  }
  if (error.code === 'PGRST116' || error.code === '42501') {
    return { field: 'form', message: 'Only the owner can change the settings.' };
  }
  return { field: 'form', message: error.message };
}

export async function getSettings(client: SupabaseClient): Promise<Settings> {
  const row = unwrap(await client.from('settings').select('*').eq('id', true).single());
  return row as unknown as Settings;
}

/** Saves the form; RLS lets only the owner's update touch the row, and `.single()` turns "no row" into an error. */
export async function saveSettings(
  client: SupabaseClient,
  form: Partial<SettingsForm>,
): Promise<Settings> {
  const result = await client.from('settings').update(form).eq('id', true).select('*').single();
  if (result.error) throw toQueryError(result.error, result.status);
  return result.data as Settings;
}
