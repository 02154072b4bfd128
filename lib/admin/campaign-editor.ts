// Reads and writes of the campaign editor: one campaign with its lists, the first save that
// creates it, content and list saves (drafts; paused content for admins, as RLS and the grants
// allow), duplicate, the recipient count, and the actions of send-campaign. They take the client so hooks pass the browser's and tests a member's.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, TablesInsert } from '../database.types';
import {
  isRecord,
  isString,
  parseArray,
  readFunctionResult,
  type FunctionFailure,
} from '../functions';
import type { SupabaseResult } from '../use-query';
import {
  campaignValues,
  campaignWriteError,
  type CampaignField,
  type CampaignForm,
  type CampaignRow,
  type FieldError,
} from './campaign-editor-form';

type Client = SupabaseClient<Database>;

export interface EditableCampaign {
  campaign: CampaignRow;
  /** Ids of the chosen lists. */
  listIds: string[];
}

export type WriteResult<T> = ({ ok: true } & T) | ({ ok: false } & FieldError);

/** One campaign and its lists; data null when it does not exist (or RLS hides it). */
export async function loadCampaign(
  client: Client,
  id: string,
): Promise<SupabaseResult<EditableCampaign>> {
  const [campaign, lists] = await Promise.all([
    client.from('campaigns').select('*').eq('id', id).maybeSingle(),
    client.from('campaign_lists').select('list_id').eq('campaign_id', id),
  ]);
  if (campaign.error) return { data: null, error: campaign.error, status: campaign.status };
  if (lists.error) return { data: null, error: lists.error, status: lists.status };
  if (!campaign.data) return { data: null, error: null };
  return {
    data: { campaign: campaign.data, listIds: (lists.data ?? []).map((r) => r.list_id) },
    error: null,
  };
}

const NOT_A_DRAFT: FieldError = {
  field: null,
  message: 'Only drafts can be edited. This campaign is no longer a draft.',
};

const NOT_PAUSED: FieldError = {
  field: null,
  message: 'Only a paused campaign can be edited by an admin. This one is no longer paused.',
};

/**
 * Saves the content columns of a draft; refuses (without writing) once it is not a draft. With
 * `paused`, saves only what may change while a campaign is paused (name, subject, preheader,
 * body: admins, enforced by RLS and the transition trigger) and refuses once it is not paused.
 */
export async function saveCampaign(
  client: Client,
  id: string,
  form: CampaignForm,
  status: 'draft' | 'paused' = 'draft',
): Promise<WriteResult<{ campaign: CampaignRow }>> {
  const values = campaignValues(form);
  const { data, error } = await client
    .from('campaigns')
    .update(
      status === 'draft'
        ? values
        : {
            name: values.name,
            subject: values.subject,
            preheader: values.preheader,
            body_md: values.body_md,
          },
    )
    .eq('id', id)
    .eq('status', status)
    .select('*')
    .maybeSingle();
  if (error) return { ok: false, ...campaignWriteError(error) };
  // RLS lets only drafts (and paused, for admins) be updated: no row back means the status moved
  // meanwhile (sent, scheduled, resumed) or the row was deleted.
  if (!data) return { ok: false, ...(status === 'draft' ? NOT_A_DRAFT : NOT_PAUSED) };
  return { ok: true, campaign: data };
}

/** A new draft with these contents and lists: the editor's first save (editors and up). */
export async function createCampaign(
  client: Client,
  form: CampaignForm,
  listIds: string[],
): Promise<WriteResult<{ campaign: CampaignRow }>> {
  const { data, error } = await client
    .from('campaigns')
    .insert(campaignValues(form) as TablesInsert<'campaigns'>)
    .select('*')
    .single();
  if (error) return { ok: false, ...campaignWriteError(error) };
  if (listIds.length) {
    const lists = await saveCampaignLists(client, data.id, listIds, []);
    // The draft exists now: its lists can be chosen again in it.
    if (!lists.ok) return { ok: false, field: 'lists', message: lists.message };
  }
  return { ok: true, campaign: data };
}

/** A copy of any campaign as a new draft ("… (copy)", same lists and content); answers its id. */
export async function duplicateCampaign(
  client: Client,
  id: string,
): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  const { data, error } = await client.rpc('duplicate_campaign', { p_campaign_id: id });
  if (error) return { ok: false, message: campaignWriteError(error).message };
  const row = data as unknown as CampaignRow | null;
  if (!row?.id) return { ok: false, message: 'The copy could not be made.' };
  return { ok: true, id: row.id };
}

/** Makes the draft's lists exactly `listIds` (adds the new ones, removes the others). */
export async function saveCampaignLists(
  client: Client,
  id: string,
  listIds: string[],
  previous: string[],
): Promise<WriteResult<object>> {
  const wanted = new Set(listIds);
  const added = listIds.filter((l) => !previous.includes(l));
  const removed = previous.filter((l) => !wanted.has(l));
  if (added.length) {
    const { error } = await client.from('campaign_lists').upsert(
      added.map((list_id) => ({ campaign_id: id, list_id })),
      { onConflict: 'campaign_id,list_id', ignoreDuplicates: true },
    );
    if (error) return { ok: false, field: 'lists', message: campaignWriteError(error).message };
  }
  if (removed.length) {
    const { error } = await client
      .from('campaign_lists')
      .delete()
      .eq('campaign_id', id)
      .in('list_id', removed);
    if (error) return { ok: false, field: 'lists', message: campaignWriteError(error).message };
  }
  return { ok: true };
}

/** Enabled subscribers confirmed on any of the lists, each once (0 for non-members, under RLS). */
export async function recipientCount(
  client: Client,
  listIds: string[],
): Promise<SupabaseResult<number>> {
  if (listIds.length === 0) return { data: 0, error: null };
  const { data, error, status } = await client.rpc('campaign_recipient_count', {
    p_list_ids: listIds,
  });
  return { data: data ?? null, error, status };
}

export type CampaignAction = 'send' | 'schedule' | 'unschedule' | 'pause' | 'resume' | 'cancel';

const FIELDS: Record<string, CampaignField> = {
  at: 'at',
  body_md: 'bodyMd',
  emails: 'emails',
  subject: 'subject',
  lists: 'lists',
};

/** A send-campaign refusal as the editor shows it: at its field when it names one. */
export function actionFailure(outcome: FunctionFailure): { ok: false } & FieldError {
  const field = outcome.field ? (FIELDS[outcome.field] ?? null) : null;
  // "emails: x is not a team member" names its field; beside that field the prefix is noise.
  const message =
    field && outcome.message.startsWith(`${outcome.field}: `)
      ? outcome.message.slice(outcome.field!.length + 2)
      : outcome.message;
  return { ok: false, field, message };
}

function parseCampaign(data: unknown): CampaignRow | null {
  if (!isRecord(data) || !isRecord(data.campaign)) return null;
  const row = data.campaign;
  return isString(row.id) && isString(row.status) ? (row as unknown as CampaignRow) : null;
}

/** send / schedule (with `at`) / unschedule / pause / resume / cancel through send-campaign. */
export async function runCampaignAction(
  client: Client,
  id: string,
  action: CampaignAction,
  at?: string,
): Promise<WriteResult<{ campaign: CampaignRow }>> {
  const body: Record<string, unknown> = { campaign_id: id, action };
  if (at) body.at = at;
  const outcome = await readFunctionResult(
    await client.functions.invoke('send-campaign', { body }),
    parseCampaign,
  );
  return outcome.ok ? { ok: true, campaign: outcome.data } : actionFailure(outcome);
}

/** A test to team addresses (the caller's own when `emails` is empty); answers who got it. */
export async function sendTest(
  client: Client,
  id: string,
  emails: string[],
): Promise<WriteResult<{ sent: string[] }>> {
  const body: Record<string, unknown> = { campaign_id: id, action: 'test' };
  if (emails.length) body.emails = emails;
  const outcome = await readFunctionResult(
    await client.functions.invoke('send-campaign', { body }),
    (data) => (isRecord(data) ? parseArray(data.sent, (e) => (isString(e) ? e : null)) : null),
  );
  return outcome.ok ? { ok: true, sent: outcome.data } : actionFailure(outcome);
}

/** "a@x.test, b@x.test" → addresses, trimmed and lower-cased, blanks dropped. */
export function parseEmailList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}
