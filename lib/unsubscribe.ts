// The `unsubscribe` function's page answers: the (masked) address and its lists with their status.
import { isRecord, isString, parseArray } from './functions';

export interface UnsubscribeList {
  slug: string;
  name: string;
  status: 'pending' | 'confirmed' | 'unsubscribed';
}

export interface UnsubscribeView {
  email: string;
  lists: UnsubscribeList[];
}

function parseList(value: unknown): UnsubscribeList | null {
  if (!isRecord(value) || !isString(value.slug) || !isString(value.name)) return null;
  const { status } = value;
  if (status !== 'pending' && status !== 'confirmed' && status !== 'unsubscribed') return null;
  return { slug: value.slug, name: value.name, status };
}

export function parseUnsubscribeView(data: unknown): UnsubscribeView | null {
  if (!isRecord(data) || !isString(data.email)) return null;
  const lists = parseArray(data.lists, parseList);
  if (!lists) return null;
  return { email: data.email, lists };
}

/**
 * The page's "Manage preferences" link: only from the preferences token the footer's unsubscribe
 * link carries (`&preferences=`). The unsubscribe token never leads there (it also travels in
 * the List-Unsubscribe header, which the mailbox provider reads).
 */
export function preferencesPath(token: string | null): string | null {
  if (!token || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return null;
  return `/preferences/?token=${token}`;
}

/** Names of the lists that are still active (pending or confirmed). */
export function activeLists(view: UnsubscribeView): UnsubscribeList[] {
  return view.lists.filter((list) => list.status !== 'unsubscribed');
}
