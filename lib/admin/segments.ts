// Segments (issue 24): saved rule sets read and written through PostgREST (RLS: members read,
// admins and owners write; the database checks the rules on save), and the editor's live preview.
import type { SupabaseClient } from '@supabase/supabase-js';
import { toQueryError } from '../use-query';
import type { RuleGroup } from './subscriber-rules';

export interface Segment {
  id: string;
  name: string;
  rules: RuleGroup;
  created_at: string;
  updated_at: string;
}

export interface Preview {
  count: number;
  sample: Array<{ id: string; email: string; name: string; status: string; created_at: string }>;
}

const COLUMNS = 'id,name,rules,created_at,updated_at';

function fail(error: unknown, status: number): never {
  throw toQueryError(error, status);
}

export async function listSegments(client: SupabaseClient): Promise<Segment[]> {
  const { data, error, status } = await client.from('segments').select(COLUMNS).order('name');
  if (error) fail(error, status);
  return (data ?? []) as Segment[];
}

/** One segment, or null when it does not exist (or the caller may not see it). */
export async function getSegment(client: SupabaseClient, id: string): Promise<Segment | null> {
  const { data, error, status } = await client
    .from('segments')
    .select(COLUMNS)
    .eq('id', id)
    .maybeSingle();
  if (error) fail(error, status);
  return (data as Segment | null) ?? null;
}

/** Creates (no id) or updates a segment; answers its id. */
export async function saveSegment(
  client: SupabaseClient,
  segment: { id?: string; name: string; rules: RuleGroup },
): Promise<string> {
  const row = { name: segment.name.trim(), rules: segment.rules };
  const query = segment.id
    ? client.from('segments').update(row).eq('id', segment.id).select('id').single()
    : client.from('segments').insert(row).select('id').single();
  const { data, error, status } = await query;
  if (error) fail(error, status);
  return (data as { id: string }).id;
}

export async function deleteSegment(client: SupabaseClient, id: string): Promise<void> {
  const { error, status } = await client.from('segments').delete().eq('id', id);
  if (error) fail(error, status);
}

export async function previewRules(
  client: SupabaseClient,
  rules: RuleGroup,
  limit = 10,
): Promise<Preview> {
  const { data, error, status } = await client.rpc('preview_subscribers_matching', {
    p_rules: rules,
    p_limit: limit,
  });
  if (error) fail(error, status);
  const answer = data as { count: number | string; sample: Preview['sample'] };
  return { count: Number(answer.count), sample: answer.sample };
}

/** What is wrong with a segment name, or null. */
export function segmentNameProblem(raw: string): string | null {
  const name = raw.trim();
  if (!name) return 'Enter a name.';
  if (name.length > 100) return 'A name has at most 100 characters.';
  return null;
}

/** The database's message without its code prefix ("postbox:conflict: …"). */
export function plainMessage(message: string): string {
  return message.replace(/^postbox:[a-z_]+: /, '');
}
