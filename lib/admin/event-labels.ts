// Readable sentences for the rows of a subscriber's event history (events.type and events.data).
import type { Json } from '../database.types';

const SOURCES: Record<string, string> = {
  admin: 'by a team member',
  form: 'through the signup form',
  'confirm-link': 'through the confirmation link',
  'one-click': 'with the one-click unsubscribe',
  preferences: 'on the preferences page',
  import: 'by a CSV import',
  'let-in': 'when let in from the waitlist',
  automation: 'by an automation',
  seed: 'in the sample data',
  system: 'by the system',
  bounce: 'after a bounce',
  complaint: 'after a complaint',
};

function text(data: Json, name: string): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const value = data[name];
  return typeof value === 'string' && value ? value : null;
}

/** "by a team member", or the raw source for one this file does not know yet. */
export function sourceLabel(source: string | null): string | null {
  if (!source) return null;
  return SOURCES[source] ?? `via ${source}`;
}

/** How the history names a tag: its name, and whether the tag has been deleted since. */
export interface TagName {
  name: string;
  deleted: boolean;
}

/**
 * One line for an event: "Subscribed to newsletter", "Unsubscribed from beta-testers", "Tagged
 * “VIP”". `listNames` maps list slugs to names so the line shows what the admin calls the list;
 * `tagNames` (tagNamesFor) maps tag ids to the name to show, so a renamed tag shows its new name
 * and a deleted one says so.
 */
export function eventLabel(
  type: string,
  data: Json,
  listNames: Record<string, string> = {},
  tagNames: Record<string, TagName> = {},
): string {
  const slug = text(data, 'list');
  const list = slug ? (listNames[slug] ?? slug) : 'a list that no longer exists';
  const tagId = text(data, 'tag_id');
  const known = tagId ? tagNames[tagId] : undefined;
  const tag = `“${known?.name || text(data, 'tag') || 'a tag'}”${known?.deleted ? ' (since deleted)' : ''}`;
  switch (type) {
    case 'subscribed':
      return text(data, 'to') === 'pending'
        ? `Subscribed to ${list} (awaiting confirmation)`
        : `Subscribed to ${list}`;
    case 'confirmed':
      return `Confirmed ${list}`;
    case 'unsubscribed':
      return `Unsubscribed from ${list}`;
    case 'resubscribed':
      return `Resubscribed to ${list}`;
    case 'bounced':
      return 'An email bounced';
    case 'complained':
      return 'Marked an email as spam';
    case 'opened':
      return 'Opened a campaign';
    case 'clicked':
      return text(data, 'url') ? `Clicked ${text(data, 'url')}` : 'Clicked a link';
    case 'imported':
      return 'Imported from a CSV file';
    case 'exported':
      return 'Data exported';
    case 'deleted':
      return 'Data deleted';
    case 'updated':
      return 'Details changed';
    case 'removed':
      return `Removed from ${list}`;
    case 'tagged':
      return `Tagged ${tag}`;
    case 'untagged':
      return `Tag ${tag} removed`;
    default:
      return type.charAt(0).toUpperCase() + type.slice(1);
  }
}

/**
 * The name to show for each tag the events name: its current name while the tag exists, else the
 * newest name the events recorded for it, marked deleted (deleting a tag writes no events, so a
 * history keeps "Tagged …" for a tag that is gone). `events` newest first, as the history lists
 * them; `current` the tags that exist, or undefined while they load (nothing is marked deleted).
 */
export function tagNamesFor(
  events: Array<{ data: Json }>,
  current: Array<{ id: string; name: string }> | undefined,
): Record<string, TagName> {
  const names: Record<string, TagName> = {};
  for (const event of events) {
    const id = text(event.data, 'tag_id');
    const name = text(event.data, 'tag');
    if (id && name && !(id in names)) names[id] = { name, deleted: current !== undefined };
  }
  for (const tag of current ?? []) names[tag.id] = { name: tag.name, deleted: false };
  return names;
}

/** The source of an event as a phrase, when it names one; an automation by its name. */
export function eventSource(data: Json): string | null {
  const source = text(data, 'source');
  if (
    source === 'automation' &&
    typeof data === 'object' &&
    data !== null &&
    !Array.isArray(data)
  ) {
    const name = text(data.automation ?? null, 'name');
    if (name) return `by the automation “${name}”`;
  }
  return sourceLabel(source);
}
