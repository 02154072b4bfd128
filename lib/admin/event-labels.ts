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

/**
 * One line for an event: "Subscribed to newsletter", "Unsubscribed from beta-testers", "Opened a
 * campaign". `listNames` maps list slugs to names so the line shows what the admin calls the list.
 */
export function eventLabel(
  type: string,
  data: Json,
  listNames: Record<string, string> = {},
): string {
  const slug = text(data, 'list');
  const list = slug ? (listNames[slug] ?? slug) : 'a list that no longer exists';
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
    default:
      return type.charAt(0).toUpperCase() + type.slice(1);
  }
}

/** The source of an event as a phrase, when it names one. */
export function eventSource(data: Json): string | null {
  return sourceLabel(text(data, 'source'));
}
