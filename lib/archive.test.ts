// Unit tests of the archive's cursor and page rules and its dates (lib/archive.ts).
import { describe, expect, it } from 'vitest';
import {
  archiveArgs,
  archivePage,
  archivePosition,
  formatCursor,
  issueDate,
  parseCursor,
  type ArchiveSummary,
} from './archive';

const ID = '3df97ffe-083a-4c48-883d-249b57317a3e';
const AT = '2026-11-22T19:07:53.349618+00:00';

function rows(n: number): ArchiveSummary[] {
  // Newest first, as archive_issues() answers.
  return Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-0000-0000-${String(100 - i).padStart(12, '0')}`,
    slug: `issue-${100 - i}`,
    subject: `Issue ${100 - i}`,
    preheader: '',
    finished_at: `2026-11-${String(30 - i).padStart(2, '0')}T10:00:00+00:00`,
  }));
}

describe('cursors', () => {
  it('round-trips a timestamp with microseconds and an id', () => {
    expect(parseCursor(formatCursor({ at: AT, id: ID }))).toEqual({ at: AT, id: ID });
  });

  it.each(['', 'x', `${AT}~not-a-uuid`, `~${ID}`, `yesterday~${ID}`, `2026-13-45T00:00~${ID}`])(
    'refuses %j',
    (value) => expect(parseCursor(value)).toBeNull(),
  );

  it('reads ?before= first, then ?after=, and falls back to the newest page', () => {
    const cursor = `${AT}~${ID}`;
    expect(archivePosition(cursor, null)).toEqual({ kind: 'before', cursor: { at: AT, id: ID } });
    expect(archivePosition(null, cursor)).toEqual({ kind: 'after', cursor: { at: AT, id: ID } });
    expect(archivePosition('garbage', null)).toEqual({ kind: 'newest' });
    expect(archiveArgs({ kind: 'newest' }, 5)).toEqual({ p_limit: 5 });
    expect(archiveArgs(archivePosition(null, cursor), 5)).toEqual({
      p_limit: 5,
      p_after_at: AT,
      p_after_id: ID,
    });
  });
});

describe('archivePage', () => {
  const cursorOf = (r: ArchiveSummary) => `${r.finished_at}~${r.id}`;

  it('the newest page: no way newer, older when the extra row came back', () => {
    const answer = rows(4);
    const page = archivePage({ kind: 'newest' }, answer, 3);
    expect(page.issues).toEqual(answer.slice(0, 3));
    expect(page.newer).toBeNull();
    expect(page.older).toBe(cursorOf(answer[2]!));
    expect(archivePage({ kind: 'newest' }, rows(3), 3).older).toBeNull();
  });

  it('an older page: newer always, older only with the extra row', () => {
    const position = archivePosition(`${AT}~${ID}`, null);
    const answer = rows(2);
    const page = archivePage(position, answer, 3);
    expect(page.issues).toEqual(answer);
    expect(page.newer).toBe(cursorOf(answer[0]!));
    expect(page.older).toBeNull();
  });

  it('a newer page keeps the rows next to the cursor; the extra one is at the top', () => {
    const position = archivePosition(null, `${AT}~${ID}`);
    const answer = rows(4);
    const page = archivePage(position, answer, 3);
    expect(page.issues).toEqual(answer.slice(1));
    expect(page.newer).toBe(cursorOf(answer[1]!));
    expect(page.older).toBe(cursorOf(answer[3]!));
    expect(archivePage(position, rows(3), 3).newer).toBeNull();
  });

  it('an empty page offers no cursors', () => {
    expect(archivePage(archivePosition(`${AT}~${ID}`, null), [], 3)).toEqual({
      issues: [],
      newer: null,
      older: null,
    });
  });
});

describe('issueDate', () => {
  it('writes the date in UTC as Intl writes a long English date', () => {
    const intl = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });
    // Every month, the first and last days, and times whose local date is another day.
    const dates = [
      '2026-11-20T09:00:00+00:00',
      '2026-11-20T23:30:00-05:00',
      '2026-01-01T00:00:00.123456+00:00',
      '2025-12-31T23:59:59.999999Z',
      '2099-02-28 12:00:00+00',
      ...Array.from(
        { length: 12 },
        (_, m) => `2024-${String(m + 1).padStart(2, '0')}-15T12:00:00Z`,
      ),
    ];
    for (const iso of dates) expect(issueDate(iso), iso).toBe(intl.format(new Date(iso)));
    expect(issueDate('2026-11-20T23:30:00-05:00')).toBe('November 21, 2026');
  });
});
