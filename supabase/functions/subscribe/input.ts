// subscribe's input rules (SPEC §5, §7) as a pure function: no Deno globals, so vitest tests it too.
import { checkEmail } from '../_shared/email.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { isStorable, parseName } from '../_shared/text.ts';

export const MAX_LISTS = 20;
export const MAX_REF_LENGTH = 32;
export const MAX_ATTRIBUTES_BYTES = 4096;

export interface SubscribeInput {
  email: string;
  name: string;
  /** null = the main list. */
  lists: string[] | null;
  /** A referral code that could exist, else null (a bad code never blocks a signup). */
  ref: string | null;
  attributes: Record<string, unknown> | null;
  /** The honeypot field was filled: answer as usual and do nothing. */
  honeypot: boolean;
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const REFERRAL_CODE = /^[A-Za-z0-9_-]+$/;

/**
 * The size Postgres gives `attributes::text` (jsonb prints `", "` and `": "` between items), so
 * the 4 KB rule here is the one the table's check constraint applies.
 */
export function jsonbTextBytes(value: unknown): number {
  const text = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(text).join(', ')}]`;
    if (v !== null && typeof v === 'object') {
      return `{${Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `${JSON.stringify(k)}: ${text(x)}`)
        .join(', ')}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return new TextEncoder().encode(text(value)).byteLength;
}

function hasBadText(value: unknown): boolean {
  if (typeof value === 'string') return !isStorable(value);
  if (Array.isArray(value)) return value.some(hasBadText);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => !isStorable(k) || hasBadText(v));
  }
  return false;
}

export function parseSubscribeInput(body: Record<string, unknown>): SubscribeInput {
  const checked = checkEmail(body.email);
  if (!checked.ok) throw new AppError('invalid_email', undefined, { field: 'email' });

  const name = parseName(body.name) ?? '';

  let lists: string[] | null = null;
  if (body.lists !== undefined && body.lists !== null) {
    if (!Array.isArray(body.lists) || !body.lists.every((s) => typeof s === 'string')) {
      throw invalidInput('lists', 'must be a list of list slugs');
    }
    if (body.lists.length === 0) throw invalidInput('lists', 'choose at least one list');
    if (body.lists.length > MAX_LISTS) throw invalidInput('lists', `at most ${MAX_LISTS} lists`);
    lists = [...new Set(body.lists as string[])];
    // A string that cannot be a slug names no list.
    if (lists.some((slug) => slug.length > 48 || !SLUG.test(slug))) {
      throw new AppError('list_not_found', undefined, { field: 'lists' });
    }
  }

  let ref: string | null = null;
  if (body.ref !== undefined && body.ref !== null && body.ref !== '') {
    if (typeof body.ref !== 'string' || body.ref.length > MAX_REF_LENGTH) {
      throw invalidInput('ref', `a referral code of at most ${MAX_REF_LENGTH} characters`);
    }
    ref = REFERRAL_CODE.test(body.ref) ? body.ref : null;
  }

  let attributes: Record<string, unknown> | null = null;
  if (body.attributes !== undefined && body.attributes !== null) {
    const value = body.attributes;
    if (
      typeof value !== 'object' ||
      Array.isArray(value) ||
      jsonbTextBytes(value) > MAX_ATTRIBUTES_BYTES
    ) {
      throw invalidInput('attributes', 'a JSON object of at most 4 KB');
    }
    if (hasBadText(value)) {
      throw invalidInput('attributes', 'text must be valid Unicode, without NUL characters');
    }
    attributes = value as Record<string, unknown>;
  }

  const website = body.website;
  const honeypot =
    website !== undefined &&
    website !== null &&
    website !== false &&
    !(typeof website === 'string' && website.trim() === '');

  return { email: checked.email, name, lists, ref, attributes, honeypot };
}
