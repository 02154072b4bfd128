// The preferences page's rules: the function's answer, what a save sends (only what changed),
// and the file "Download my data" saves.
import { isRecord, isString, parseArray } from './functions';

export interface PreferenceList {
  slug: string;
  name: string;
  description: string;
  subscribed: boolean;
}

export interface Preferences {
  email: string;
  name: string;
  lists: PreferenceList[];
}

function parseList(value: unknown): PreferenceList | null {
  if (!isRecord(value) || !isString(value.slug) || !isString(value.name)) return null;
  if (typeof value.subscribed !== 'boolean') return null;
  const description = isString(value.description) ? value.description : '';
  return { slug: value.slug, name: value.name, description, subscribed: value.subscribed };
}

export function parsePreferences(data: unknown): Preferences | null {
  if (!isRecord(data) || !isString(data.email)) return null;
  const lists = parseArray(data.lists, parseList);
  if (!lists) return null;
  return { email: data.email, name: isString(data.name) ? data.name : '', lists };
}

export interface PreferencesDraft {
  name: string;
  lists: Record<string, boolean>;
}

export function draftFrom(preferences: Preferences): PreferencesDraft {
  return {
    name: preferences.name,
    lists: Object.fromEntries(preferences.lists.map((list) => [list.slug, list.subscribed])),
  };
}

export interface PreferencesChanges {
  name?: string;
  lists?: Record<string, boolean>;
}

/** The body of a save: only the name when it changed and only the lists that were switched. */
export function preferencesChanges(
  saved: Preferences,
  draft: PreferencesDraft,
): PreferencesChanges | null {
  const changes: PreferencesChanges = {};
  const name = draft.name.trim();
  if (name !== saved.name.trim()) changes.name = name;
  const lists: Record<string, boolean> = {};
  for (const list of saved.lists) {
    const wanted = draft.lists[list.slug];
    if (wanted !== undefined && wanted !== list.subscribed) lists[list.slug] = wanted;
  }
  if (Object.keys(lists).length) changes.lists = lists;
  return Object.keys(changes).length ? changes : null;
}

/** The same name checks the function makes (SPEC §5), for an instant message. */
export { nameProblem } from './subscribe';

/** `my-data-2026-11-22.json`: the date of the download, so repeated downloads do not collide. */
export function exportFileName(now: Date = new Date()): string {
  return `my-data-${now.toISOString().slice(0, 10)}.json`;
}

/** The export answer's `data`, pretty-printed for a person to read. */
export function exportFileText(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

export function parseExport(data: unknown): { data: Record<string, unknown> } | null {
  return isRecord(data) && isRecord(data.data) ? { data: data.data } : null;
}

export function parseDeleted(data: unknown): { deleted: true } | null {
  return isRecord(data) && data.deleted === true ? { deleted: true } : null;
}
