// The list editor's rules (SPEC §3, §5), shared by the form and its tests: slug, name and
// description checks, a slug suggested from the name, and database refusals placed at a field.
import type { Tables, TablesInsert } from '../database.types';
import { toQueryError } from '../use-query';

export const SLUG_MAX = 48;
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;
const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export type ListRow = Tables<'lists'>;

export interface ListForm {
  name: string;
  slug: string;
  description: string;
  visibility: 'public' | 'private';
  optin: 'single' | 'double';
  waitlist: boolean;
}

export type ListField = 'name' | 'slug' | 'description';
export type ListErrors = Partial<Record<ListField, string>>;

export const EMPTY_LIST_FORM: ListForm = {
  name: '',
  slug: '',
  description: '',
  visibility: 'public',
  optin: 'double',
  waitlist: false,
};

export function formFromList(list: ListRow): ListForm {
  return {
    name: list.name,
    slug: list.slug,
    description: list.description,
    visibility: list.visibility === 'private' ? 'private' : 'public',
    optin: list.optin === 'single' ? 'single' : 'double',
    waitlist: list.waitlist,
  };
}

/** SPEC §5: `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 48 characters; null when fine. */
export function slugError(slug: string): string | null {
  if (!slug) return 'Enter a slug.';
  if (slug.length > SLUG_MAX) return `Use at most ${SLUG_MAX} characters.`;
  if (!SLUG_PATTERN.test(slug)) {
    return 'Use lower-case letters, digits and single hyphens between them (e.g. product-news).';
  }
  return null;
}

/** "Product News!" → "product-news": what the slug field suggests while it is untouched. */
export function slugify(text: string, max = SLUG_MAX): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, max).replace(/-+$/, '');
}

export function validateList(form: ListForm): ListErrors {
  const errors: ListErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = 'Enter a name.';
  else if (name.length > NAME_MAX) errors.name = `Use at most ${NAME_MAX} characters.`;
  const slug = slugError(form.slug);
  if (slug) errors.slug = slug;
  if (form.description.length > DESCRIPTION_MAX) {
    errors.description = `Use at most ${DESCRIPTION_MAX} characters.`;
  }
  return errors;
}

/** The row to insert or update, trimmed as the database keeps it. */
export function listValues(form: ListForm): Omit<TablesInsert<'lists'>, 'id'> {
  return {
    name: form.name.trim(),
    slug: form.slug,
    description: form.description.trim(),
    visibility: form.visibility,
    optin: form.optin,
    waitlist: form.waitlist,
  };
}

/** A write the database refused, as the form shows it: at a field, or for the whole form. */
export interface ListWriteError {
  field: ListField | null;
  message: string;
}

/** Maps a PostgREST error (`code` is the SQLSTATE) onto the form. */
export function listWriteError(error: { code?: string; message?: string }): ListWriteError {
  const message = error.message ?? '';
  switch (error.code) {
    case '23505':
      return { field: 'slug', message: 'That slug is taken. Choose another.' };
    case '23514':
      if (message.includes('slug')) return { field: 'slug', message: slugError('-') ?? message };
      if (message.includes('name')) return { field: 'name', message: 'Enter a name.' };
      if (message.includes('description')) {
        return { field: 'description', message: `Use at most ${DESCRIPTION_MAX} characters.` };
      }
      return { field: null, message: 'The database refused these values.' };
    case '23503':
      return {
        field: null,
        message: 'This list is still used by a campaign, so it cannot be deleted.',
      };
    case '42501':
      return { field: null, message: 'You do not have permission to do that.' };
    default:
      return {
        field: null,
        message: message
          ? `Saving failed: ${toQueryError(error).message}`
          : 'We could not reach the server. Check your connection and try again.',
      };
  }
}
