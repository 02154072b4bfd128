// What the preferences form shows after an action succeeds: the server's answer for what the
// action concerned, and the visitor's unsaved edits for everything else (SPEC §8: nothing typed is
// lost). Pure, so it is unit-tested beside this file.
import type { Preferences, PreferencesChanges, PreferencesDraft } from '../../lib/preferences';

/** What an action changed on the server: the name, and which lists. */
export interface DraftConcern {
  name: boolean;
  lists: readonly string[];
}

/** "Unsubscribe from all" concerns every list and not the name. */
export function unsubscribeAllConcern(before: Preferences): DraftConcern {
  return { name: false, lists: before.lists.map((list) => list.slug) };
}

/** A save concerns exactly what it sent. */
export function saveConcern(changes: PreferencesChanges): DraftConcern {
  return { name: changes.name !== undefined, lists: Object.keys(changes.lists ?? {}) };
}

/**
 * The draft after an action: a field the action concerned, or one the visitor had not edited
 * (still equal to `before`), takes the server's new value; any other edit is kept as typed.
 */
export function rebaseDraft(
  draft: PreferencesDraft,
  before: Preferences,
  after: Preferences,
  concern: DraftConcern,
): PreferencesDraft {
  const nameEdited = draft.name !== before.name;
  const wasSubscribed = new Map(before.lists.map((list) => [list.slug, list.subscribed]));
  const lists: Record<string, boolean> = {};
  for (const list of after.lists) {
    const wanted = draft.lists[list.slug];
    const edited = wanted !== undefined && wanted !== wasSubscribed.get(list.slug);
    lists[list.slug] = edited && !concern.lists.includes(list.slug) ? wanted : list.subscribed;
  }
  return { name: nameEdited && !concern.name ? draft.name : after.name, lists };
}
