// What an 'updated' event changed (issue 23: old → new for each field) and who made a change, as
// short lines for the subscriber's history.
import type { Json } from '../database.types';

const FIELDS: Record<string, string> = {
  email: 'Email',
  name: 'Name',
  attributes: 'Attributes',
  notes: 'Notes',
  status: 'Status',
};

function record(value: Json | undefined): Record<string, Json | undefined> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
}

function shown(value: Json | undefined): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** "Name: Ada → Ada Lovelace", one line per changed field, in a fixed order. */
export function eventChanges(data: Json): string[] {
  const changes = record(record(data)?.changes);
  if (!changes) return [];
  return Object.keys(FIELDS)
    .filter((field) => record(changes[field]))
    .map((field) => {
      const change = record(changes[field])!;
      return `${FIELDS[field]}: ${shown(change.from)} → ${shown(change.to)}`;
    });
}

/** "by ada@example.com" when the event names the member who made the change. */
export function eventActor(data: Json): string | null {
  const email = record(record(data)?.actor)?.email;
  return typeof email === 'string' && email ? `by ${email}` : null;
}
