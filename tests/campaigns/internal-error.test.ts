// SPEC §8: `internal` always answers "Something went wrong. Nothing was changed."; a detail given
// with it (e.g. "The site settings could not be read.") goes to the log, never to the caller.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, invalidInput } from '../../supabase/functions/_shared/errors';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AppError', () => {
  it('answers internal with the catalogue message whatever detail it was given, and logs the detail', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = new AppError('internal', 'The site settings could not be read.');
    expect([error.code, error.status, error.message]).toEqual([
      'internal',
      500,
      'Something went wrong. Nothing was changed.',
    ]);
    expect(log).toHaveBeenCalledWith('internal error: The site settings could not be read.');
  });

  it('logs nothing for a plain internal error', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(new AppError('internal').message).toBe('Something went wrong. Nothing was changed.');
    expect(log).not.toHaveBeenCalled();
  });

  it('keeps the messages of the other codes', () => {
    expect(new AppError('conflict', 'Only drafts can be edited.').message).toBe(
      'Only drafts can be edited.',
    );
    expect(new AppError('unauthenticated').message).toBe('Sign in to continue.');
    expect(invalidInput('lists', 'choose at least one list')).toMatchObject({
      message: 'lists: choose at least one list',
      field: 'lists',
    });
  });
});
