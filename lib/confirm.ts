// The `confirm` function's answer (double opt-in): the lists confirmed and, on a waitlist, the place.
import { isRecord, parseArray, parseListRef, type ListRef } from './functions';
import { parseWaitlistStanding, type WaitlistStanding } from './waitlist';

export interface ConfirmAnswer {
  lists: ListRef[];
  waitlist: WaitlistStanding | null;
  /** The link also saved the name or details submitted with the form (a known address). */
  updated: boolean;
  /** The link had been opened before: this answer is the current state, nothing was applied. */
  already: boolean;
}

export function parseConfirmAnswer(data: unknown): ConfirmAnswer | null {
  if (!isRecord(data)) return null;
  const lists = parseArray(data.lists, parseListRef);
  if (!lists) return null;
  const updated = data.updated === true;
  const already = data.already === true;
  if (data.waitlist === undefined || data.waitlist === null) {
    return { lists, waitlist: null, updated, already };
  }
  const waitlist = parseWaitlistStanding(data.waitlist);
  return waitlist ? { lists, waitlist, updated, already } : null;
}

/** "The newsletter", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
