// Tags of subscribers (issue 24): reading them with their counts, a subscriber's own tags, tagging
// and untagging one subscriber, renaming and deleting (SQL: 20261128100100), and the name rules the
// database applies, checked here first so a typo is told at the field.
import type { SupabaseClient } from '@supabase/supabase-js';
import { toQueryError } from '../use-query';
import { rulesForIds } from './subscriber-rules';

export interface TagSummary {
  id: string;
  name: string;
  /** How many subscribers have it. */
  subscribers: number;
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

function fail(error: unknown, status: number): never {
  throw toQueryError(error, status);
}

export async function listTags(client: SupabaseClient): Promise<TagSummary[]> {
  const { data, error, status } = await client.rpc('tag_counts');
  if (error) fail(error, status);
  return ((data ?? []) as Array<{ id: string; name: string; subscribers: number }>).map((t) => ({
    id: t.id,
    name: t.name,
    subscribers: Number(t.subscribers),
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
