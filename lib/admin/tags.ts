// Tags of subscribers (issue 24): reading them with their counts, a subscriber's own tags, tagging
// and untagging one subscriber, creating, renaming and deleting (SQL: 20261128100100,
// 20261201400100), what uses a tag, and the name rules the database applies, checked here first so
// a typo is told at the field.
import type { SupabaseClient } from '@supabase/supabase-js';
import { toQueryError } from '../use-query';
import { rulesForIds } from './subscriber-rules';
import { parseTagUsage, type TagUsage } from './tag-usage';

export interface TagSummary {
  id: string;
  name: string;
  /** How many subscribers have it. */
  subscribers: number;
  created_at: string;
}

export interface Tag {
  id: string;
  name: string;
}

export const MAX_TAG_LENGTH = 64;

/** What is wrong with a tag name as typed, or null (the database checks the same). */
export function tagNameProblem(raw: string): string | null {
  const name = raw.trim();
  if (!name) return 'Enter a tag.';
  if (name.length > MAX_TAG_LENGTH) return `A tag has at most ${MAX_TAG_LENGTH} characters.`;
  if (/[,;]/.test(name)) return 'A tag cannot contain a comma or a semicolon.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'A tag cannot contain control characters.';
  return null;
}

/** Splits an import cell or a typed list ("vip; early, beta") into tag names, case-deduplicated. */
export function splitTags(cell: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of cell.split(/[,;]/)) {
    const name = part.trim();
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

export type TagSort = 'name' | 'subscribers' | 'newest';

/** The tags whose name contains `query` (ignoring case), by name, most subscribers or newest. */
export function visibleTags(tags: TagSummary[], query: string, sort: TagSort): TagSummary[] {
  const q = query.trim().toLowerCase();
  const byName = (a: TagSummary, b: TagSummary) =>
    a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });
  const shown = q ? tags.filter((t) => t.name.toLowerCase().includes(q)) : [...tags];
  if (sort === 'subscribers')
    return shown.sort((a, b) => b.subscribers - a.subscribers || byName(a, b));
  if (sort === 'newest')
    return shown.sort((a, b) => b.created_at.localeCompare(a.created_at) || byName(a, b));
  return shown.sort(byName);
}

/**
 * Where a refused create or rename is told: a name taken (409) or refused (422) at the name field,
 * anything else (forbidden, a lost connection) under the form, without the code prefix.
 */
export function tagWriteError(error: { status?: number; message: string }): {
  field: string | null;
  form: string | null;
} {
  const message = error.message.replace(/^postbox:[a-z_]+: (name: )?/, '');
  const shown = message.charAt(0).toUpperCase() + message.slice(1);
  return error.status === 409 || error.status === 422
    ? { field: shown, form: null }
    : { field: null, form: shown };
}

function fail(error: unknown, status: number): never {
  throw toQueryError(error, status);
}

export async function listTags(client: SupabaseClient): Promise<TagSummary[]> {
  const { data, error, status } = await client.rpc('tag_counts');
  if (error) fail(error, status);
  return (
    (data ?? []) as Array<{ id: string; name: string; subscribers: number; created_at: string }>
  ).map((t) => ({
    id: t.id,
    name: t.name,
    subscribers: Number(t.subscribers),
    created_at: t.created_at,
  }));
}

export async function subscriberTags(client: SupabaseClient, subscriberId: string): Promise<Tag[]> {
  const { data, error, status } = await client
    .from('subscriber_tags')
    .select('tags(id,name)')
    .eq('subscriber_id', subscriberId);
  if (error) fail(error, status);
  const rows = (data ?? []) as unknown as Array<{ tags: Tag | null }>;
  return rows
    .map((r) => r.tags)
    .filter((t): t is Tag => t !== null)
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}

/** Adds (creating it when new) or removes one tag on one subscriber. */
export async function setSubscriberTag(
  client: SupabaseClient,
  subscriberId: string,
  name: string,
  action: 'add' | 'remove',
): Promise<void> {
  const { error, status } = await client.rpc('tag_subscribers', {
    p_action: action,
    p_tags: [name],
    p_rules: rulesForIds([subscriberId]),
  });
  if (error) fail(error, status);
}

/** Creates a tag by name (409 when another tag has it, ignoring case). */
export async function createTag(client: SupabaseClient, name: string): Promise<Tag> {
  const { data, error, status } = await client.rpc('create_tag', { p_name: name });
  if (error) fail(error, status);
  const row = data as { id: string; name: string };
  return { id: row.id, name: row.name };
}

/** How many subscribers have the tag and which segments and automations name it. */
export async function tagUsage(client: SupabaseClient, id: string): Promise<TagUsage> {
  const { data, error, status } = await client.rpc('tag_usage', { p_tag: id });
  if (error) fail(error, status);
  return parseTagUsage(data);
}

export async function renameTag(client: SupabaseClient, id: string, name: string): Promise<void> {
  const { error, status } = await client.rpc('rename_tag', { p_tag: id, p_name: name });
  if (error) fail(error, status);
}

/** Deletes a tag from everyone; answers how many subscribers had it. */
export async function deleteTag(client: SupabaseClient, id: string): Promise<number> {
  const { data, error, status } = await client.rpc('delete_tag', { p_tag: id });
  if (error) fail(error, status);
  return Number(data ?? 0);
}
