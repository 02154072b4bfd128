// Unit tests for the import's object path, progress numbers, stored errors and stall rule.
import { describe, expect, it } from 'vitest';
import {
  importErrors,
  importObjectPath,
  importProgress,
  isStalled,
  STALL_MS,
  type ImportView,
} from './imports';

function row(patch: Partial<ImportView>): ImportView {
  return {
    id: 'i1',
    object_path: 'u/1-a.csv',
    list_ids: ['l1'],
    optin: 'confirmed',
    existing: 'merge',
    send_confirmations: false,
    status: 'running',
    total_rows: 1000,
    processed_rows: 0,
    inserted: 0,
    updated: 0,
    skipped: 0,
    errors: [],
    error_count: 0,
    failure_reason: null,
    created_at: '2026-11-22T00:00:00Z',
    started_at: null,
    finished_at: null,
    ...patch,
  };
}

describe('importObjectPath', () => {
  it('puts the file under the member with the time and a safe name', () => {
    expect(importObjectPath('u1', 'My Contacts (2).CSV', 7)).toBe('u1/7-my-contacts-2.csv');
    expect(importObjectPath('u1', 'C:\\fakepath\\Café.csv', 8)).toBe('u1/8-cafe.csv');
    expect(importObjectPath('u1', '.csv', 9)).toBe('u1/9-import.csv');
  });
});

describe('importProgress', () => {
  it('goes from the processed share of the total to 100 % when done', () => {
    expect(importProgress(row({ status: 'queued', total_rows: null })).percent).toBe(0);
    expect(importProgress(row({ processed_rows: 333 })).percent).toBe(33);
    // Never 100 % before the row says done.
    expect(importProgress(row({ processed_rows: 999 })).percent).toBe(99);
    const done = importProgress(row({ status: 'done', processed_rows: 1000 }));
    expect(done).toMatchObject({ percent: 100, finished: true, processed: 1000, total: 1000 });
  });

  it('counts the bad rows beyond the stored first 100', () => {
    const errors = Array.from({ length: 100 }, (_, i) => ({ line: i + 2, reason: 'x' }));
    expect(importProgress(row({ errors, error_count: 130 })).moreErrors).toBe(30);
    expect(importProgress(row({ errors: errors.slice(0, 3), error_count: 3 })).moreErrors).toBe(0);
  });

  it('is finished when failed, whatever it processed', () => {
    expect(importProgress(row({ status: 'failed', total_rows: null }))).toMatchObject({
      finished: true,
      percent: 0,
    });
  });
});

describe('importErrors', () => {
  it('keeps well-formed {line, reason} entries only', () => {
    expect(importErrors([{ line: 4, reason: 'invalid email address' }, { line: 'x' }, 3])).toEqual([
      { line: 4, reason: 'invalid email address' },
    ]);
    expect(importErrors(null)).toEqual([]);
  });
});

describe('isStalled', () => {
  it('is true for a queued or running import that has not moved for the stall time', () => {
    expect(isStalled(row({}), 0, STALL_MS)).toBe(true);
    expect(isStalled(row({}), 0, STALL_MS - 1)).toBe(false);
    expect(isStalled(row({ status: 'queued' }), 0, STALL_MS)).toBe(true);
    expect(isStalled(row({ status: 'done' }), 0, STALL_MS * 2)).toBe(false);
  });
});
