// The public archive's rules (SPEC §2): keyset cursors in the query string, turning one answer of
// archive_issues() into a page with its "Newer" and "Older" cursors, and dates as readers see them.
import type { Database } from './database.types';
import { isUuid } from './uuid';

type Functions = Database['public']['Functions'];
export type ArchiveSummary = Functions['archive_issues']['Returns'][number];
export type ArchiveIssue = Functions['archive_issue']['Returns'][number];

/** Issues on one page of /archive/. */
export const ARCHIVE_PAGE_SIZE = 20;
/** Issues in the home page's "Latest issues". */
export const LATEST_ISSUES = 3;

/** A position in the archive: one issue's finish time (as Postgres wrote it) and id. */
export interface ArchiveCursor {
  at: string;
  id: string;
}

/** Which page of the archive: the newest, the one older than a cursor, or the one newer. */
export type ArchivePosition =
  | { kind: 'newest' }
  | { kind: 'before'; cursor: ArchiveCursor }
  | { kind: 'after'; cursor: ArchiveCursor };

/** `<timestamp>~<uuid>`: the timestamp is kept as text, since a JS Date would drop microseconds. */
export function formatCursor(cursor: ArchiveCursor): string {
  return `${cursor.at}~${cursor.id}`;
}

/** The cursor in a query-string value, or null when it is missing or not one of ours. */
export function parseCursor(value: string | null | undefined): ArchiveCursor | null {
  if (!value) return null;
  const cut = value.lastIndexOf('~');
  if (cut <= 0) return null;
  const at = value.slice(0, cut);
  const id = value.slice(cut + 1);
  if (!isUuid(id) || !/^\d{4}-\d{2}-\d{2}[T ]/.test(at) || Number.isNaN(Date.parse(at))) {
    return null;
  }
  return { at, id };
}

/** The page a visitor asked for with `?before=` or `?after=` (a broken cursor means the newest). */
export function archivePosition(before: string | null, after: string | null): ArchivePosition {
  const older = parseCursor(before);
  if (older) return { kind: 'before', cursor: older };
  const newer = parseCursor(after);
  if (newer) return { kind: 'after', cursor: newer };
  return { kind: 'newest' };
}

/** archive_issues() arguments for a position. */
export function archiveArgs(position: ArchivePosition, size = ARCHIVE_PAGE_SIZE) {
  if (position.kind === 'before') {
    return { p_limit: size, p_before_at: position.cursor.at, p_before_id: position.cursor.id };
  }
  if (position.kind === 'after') {
    return { p_limit: size, p_after_at: position.cursor.at, p_after_id: position.cursor.id };
  }
  return { p_limit: size };
}

export interface ArchivePage {
  issues: ArchiveSummary[];
  /** `?after=` value of the newer page, or null on the newest page. */
  newer: string | null;
  /** `?before=` value of the older page, or null on the oldest page. */
  older: string | null;
}

const cursorOf = (issue: ArchiveSummary) => formatCursor({ at: issue.finished_at, id: issue.id });

/**
 * One page from archive_issues()' answer (newest first, up to size + 1 rows). The extra row only
 * says that more lie beyond in the direction moved: past the end when going older, above the top
 * when going newer. The way back is always open, since the visitor came from there.
 */
export function archivePage(
  position: ArchivePosition,
  rows: ArchiveSummary[],
  size = ARCHIVE_PAGE_SIZE,
): ArchivePage {
  const more = rows.length > size;
  const issues =
    position.kind === 'after' ? rows.slice(Math.max(rows.length - size, 0)) : rows.slice(0, size);
  const first = issues[0];
  const last = issues[issues.length - 1];
  const hasNewer = position.kind === 'after' ? more : position.kind === 'before';
  const hasOlder = position.kind === 'after' ? true : more;
  return {
    issues,
    newer: hasNewer && first ? cursorOf(first) : null,
    older: hasOlder && last ? cursorOf(last) : null,
  };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * "November 22, 2026" for an issue's date, as `Intl.DateTimeFormat('en', { dateStyle: 'long' })`
 * writes it, in UTC: the same date for every reader and in the exported HTML of pre-rendered issues
 * (the build's time zone is not the reader's, and a different date would not hydrate). Spelled out
 * rather than formatted by Intl: building a DateTimeFormat is one of the costliest steps of a public
 * page's first load on a phone (issue 22's TBT), and English month names do not change.
 */
export function issueDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
