// Campaign templates (issue 23): the starting points New campaign offers. Read by every member,
// written by editors and up (RLS); a campaign made from one copies it and stays unrelated to it.
// Takes the client so hooks pass the browser's and tests a member's.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, Tables } from '../database.types';
import { toQueryError, type SupabaseResult } from '../use-query';
import { NEW_CAMPAIGN_NAME, type CampaignForm } from './campaign-editor-form';

type Client = SupabaseClient<Database>;

export type TemplateRow = Tables<'campaign_templates'>;

export const TEMPLATE_NAME_MAX = 100;
export const TEMPLATE_DESCRIPTION_MAX = 300;

/** What a template holds: a campaign's content, without lists, sender or schedule. */
export interface TemplateContent {
  name: string;
  description: string;
  subject: string;
  preheader: string;
  bodyMd: string;
}

type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string };

/** Every template, by name (there are few: no paging). */
export async function listTemplates(client: Client): Promise<SupabaseResult<TemplateRow[]>> {
  const { data, error, status } = await client
    .from('campaign_templates')
    .select('*')
    .order('name')
    .order('id');
  return { data: data ?? null, error, status };
}

/** One template, or data null when it does not exist (or RLS hides it). */
export async function loadTemplate(
  client: Client,
  id: string,
): Promise<SupabaseResult<TemplateRow>> {
  const { data, error, status } = await client
    .from('campaign_templates')
    .select('*')
    .eq('id', id)
    .maybeSingle();
  return { data: data ?? null, error, status };
}

/** The checks of a template's name (the table's, repeated for speed). */
export function checkTemplateName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Enter a name.';
  if (trimmed.length > TEMPLATE_NAME_MAX) return `Use at most ${TEMPLATE_NAME_MAX} characters.`;
  return null;
}

function refusal(error: { code?: string; message?: string }, status?: number): string {
  if (error.code === '42501') return 'Only editors, admins and owners can change templates.';
  if (error.code === '23514') return 'The database refused these values.';
  return toQueryError(error, status).message;
}

/** A new template from a campaign's content (editors and up). */
export async function createTemplate(
  client: Client,
  content: TemplateContent,
): Promise<Outcome<{ template: TemplateRow }>> {
  const nameError = checkTemplateName(content.name);
  if (nameError) return { ok: false, message: nameError };
  const { data, error, status } = await client
    .from('campaign_templates')
    .insert({
      name: content.name.trim(),
      description: content.description.trim().slice(0, TEMPLATE_DESCRIPTION_MAX),
      subject: content.subject,
      preheader: content.preheader,
      body_md: content.bodyMd,
    })
    .select('*')
    .single();
  if (error) return { ok: false, message: refusal(error, status) };
  return { ok: true, template: data };
}

/** Renames a template; no row back means it is gone or the caller may not write. */
export async function renameTemplate(
  client: Client,
  id: string,
  name: string,
): Promise<Outcome<{ template: TemplateRow }>> {
  const nameError = checkTemplateName(name);
  if (nameError) return { ok: false, message: nameError };
  const { data, error, status } = await client
    .from('campaign_templates')
    .update({ name: name.trim() })
    .eq('id', id)
    .select('*')
    .maybeSingle();
  if (error) return { ok: false, message: refusal(error, status) };
  if (!data) return { ok: false, message: 'This template is gone, or you may not change it.' };
  return { ok: true, template: data };
}

export async function deleteTemplate(client: Client, id: string): Promise<Outcome<object>> {
  const { data, error, status } = await client
    .from('campaign_templates')
    .delete()
    .eq('id', id)
    .select('id');
  if (error) return { ok: false, message: refusal(error, status) };
  if (!data?.length) {
    return { ok: false, message: 'This template is gone, or you may not delete it.' };
  }
  return { ok: true };
}

/** The editor's starting form: blank, or a template's content (named after the template). */
export function formFromTemplate(template: TemplateRow | null): CampaignForm {
  return {
    name: template?.name ?? NEW_CAMPAIGN_NAME,
    subject: template?.subject ?? '',
    preheader: template?.preheader ?? '',
    fromName: '',
    fromEmail: '',
    archive: false,
    slug: '',
    bodyMd: template?.body_md ?? '',
  };
}
