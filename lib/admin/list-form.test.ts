// The list editor's checks (SPEC §5) and how database refusals land on the form.
import { describe, expect, it } from 'vitest';
import {
  EMPTY_LIST_FORM,
  listValues,
  listWriteError,
  slugError,
  slugify,
  validateList,
} from './list-form';

describe('slugError', () => {
  it('accepts lower-case words joined by single hyphens, up to 48 characters', () => {
    for (const ok of ['news', 'product-updates', 'a1-b2-c3', 'x'.repeat(48), '2026']) {
      expect(slugError(ok)).toBeNull();
    }
  });
  it('refuses everything else', () => {
    for (const bad of [
      '',
      'News',
      '-news',
      'news-',
      'new--s',
      'new s',
      'nëws',
      'a_b',
      'x'.repeat(49),
    ]) {
      expect(slugError(bad)).not.toBeNull();
    }
    expect(slugError('x'.repeat(49))).toBe('Use at most 48 characters.');
  });
});

describe('slugify', () => {
  it('turns a name into a valid slug', () => {
    expect(slugify('Product News!')).toBe('product-news');
    expect(slugify('  Café  Crème ')).toBe('cafe-creme');
    expect(slugify('Beta -- testers')).toBe('beta-testers');
    expect(slugify('!!!')).toBe('');
  });
  it('cuts at 48 characters without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(47)} b`);
    expect(slug).toBe('a'.repeat(47));
    expect(slugError(slugify('word '.repeat(20)))).toBeNull();
  });
});

describe('validateList', () => {
  it('needs a name and a valid slug', () => {
    expect(validateList(EMPTY_LIST_FORM)).toEqual({ name: 'Enter a name.', slug: 'Enter a slug.' });
    expect(validateList({ ...EMPTY_LIST_FORM, name: ' News ', slug: 'news' })).toEqual({});
  });
  it('limits the name to 100 and the description to 500 characters', () => {
    const errors = validateList({
      ...EMPTY_LIST_FORM,
      name: 'n'.repeat(101),
      slug: 'ok',
      description: 'd'.repeat(501),
    });
    expect(errors.name).toMatch(/100/);
    expect(errors.description).toMatch(/500/);
  });
});

describe('listValues', () => {
  it('trims what the database keeps trimmed', () => {
    expect(
      listValues({ ...EMPTY_LIST_FORM, name: ' News ', slug: 'news', description: ' hi ' }),
    ).toEqual({
      name: 'News',
      slug: 'news',
      description: 'hi',
      visibility: 'public',
      optin: 'double',
      waitlist: false,
    });
  });
});

describe('listWriteError', () => {
  it('puts a unique violation at the slug', () => {
    expect(
      listWriteError({
        code: '23505',
        message: 'duplicate key value violates unique constraint "lists_slug_key"',
      }),
    ).toEqual({
      field: 'slug',
      message: 'That slug is taken. Choose another.',
    });
  });
  it('names refused permission and lost connections for the whole form', () => {
    expect(
      listWriteError({ code: '42501', message: 'new row violates row-level security policy' })
        .message,
    ).toBe('You do not have permission to do that.');
    expect(listWriteError({}).message).toMatch(/could not reach the server/);
    expect(
      listWriteError({ code: '23514', message: 'violates check constraint "lists_slug_check"' })
        .field,
    ).toBe('slug');
  });
});
