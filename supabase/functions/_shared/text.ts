// Text rules every function applies before text reaches the database (SPEC §5): what Postgres text
// can hold, and a person's name. Pure (no Deno globals), so vitest tests it too.
import { invalidInput } from './errors.ts';

const MAX_NAME_LENGTH = 100;

/** What JSON carries but Postgres text cannot: U+0000 and a UTF-16 surrogate without its pair. */
const UNSTORABLE = /\u0000|\p{Cs}/u;
// SPEC §5: no control characters (C0, DEL and C1), as private.is_valid_name checks in SQL.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether Postgres text can hold `text`. */
export function isStorable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** `text` with what Postgres cannot hold replaced by U+FFFD, for free text kept as it came. */
export function storable(text: string): string {
  return text.replace(new RegExp(UNSTORABLE, 'gu'), '\uFFFD');
}

/**
 * A name as given (trimmed), or null when there is none; `invalid_input` naming `name` when it is
 * not text, is longer than 100 characters (code points, as SQL's char_length counts them: an emoji
 * is one, not two), holds a control character or is not valid Unicode.
 */
export function parseName(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidInput('name', 'must be text');
  const name = value.trim();
  if ([...name].length > MAX_NAME_LENGTH) {
    throw invalidInput('name', `at most ${MAX_NAME_LENGTH} characters`);
  }
  if (CONTROL.test(name)) throw invalidInput('name', 'no control characters');
  if (!isStorable(name)) throw invalidInput('name', 'must be valid Unicode text');
  return name;
}
