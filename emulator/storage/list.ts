// POST `/object/list/{b}`: one folder level under a prefix, read as the caller (SELECT policy).
import { asCaller, callerOf } from './caller.js';
import { ERRORS } from './errors.js';
import { isoTime } from './limits.js';
import { json, optionalInteger, readJson, type RouteHandler } from './route.js';
import { SQL } from './sql.js';

const SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

interface ListRow {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * `sortBy` as upstream's body schema has it: an object whose `column` is required and one of
 * SORT_COLUMNS, and whose optional `order` is exactly `asc` or `desc` (no case folding).
 */
function sortOf(value: unknown): { column: string; order: 'asc' | 'desc' } {
  if (value === undefined || value === null) return { column: 'name', order: 'asc' };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw ERRORS.invalidRequest('body/sortBy must be object');
  }
  const { column, order } = value as { column?: unknown; order?: unknown };
  if (column === undefined) {
    throw ERRORS.invalidRequest("body/sortBy must have required property 'column'");
  }
  if (typeof column !== 'string' || !SORT_COLUMNS.has(column)) {
    throw ERRORS.invalidRequest('body/sortBy/column must be equal to one of the allowed values');
  }
  if (order === undefined) return { column, order: 'asc' };
  if (order !== null && typeof order === 'object') {
    throw ERRORS.invalidRequest('body/sortBy/order must be string');
  }
  if (order !== 'asc' && order !== 'desc') {
    throw ERRORS.invalidRequest('body/sortBy/order must be equal to one of the allowed values');
  }
  return { column, order };
}

/**
 * Upstream searchObjects appends "/" to a non-empty prefix and calls storage.search()
 * (storage migration 0063): names relative to the prefix, folders as `id: null` rows,
 * case-insensitive name order with folders and files interleaved; for other sort columns
 * folders come first. Limit is capped at 1500 as there.
 */
export const listObjects: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  if (typeof body.prefix !== 'string') {
    throw ERRORS.invalidRequest("body must have required property 'prefix'");
  }
  let prefix = body.prefix;
  if (prefix.length > 0 && !prefix.endsWith('/')) prefix += '/';
  const search = typeof body.search === 'string' ? body.search : '';
  const limit = Math.min(optionalInteger(body, 'limit', 1) ?? 100, 1500);
  const offset = optionalInteger(body, 'offset', 0) ?? 0;
  const { column, order } = sortOf(body.sortBy);
  const orderBy =
    column === 'name'
      ? // A folder sorts where its names do ("sub/…"), so "sub.txt" comes before folder "sub".
        `order by lower(name || case when is_folder then '/' else '' end) collate "C" ${order}`
      : `order by is_folder desc, case when is_folder then name end ${order}, ${column} ${order}`;
  const text = SQL['list-objects'].replace('/*order*/', orderBy);
  const { rows } = await asCaller(
    deps.db,
    { caller, req, operation: 'storage.object.list' },
    (tx) =>
      tx.query<ListRow>(text, [
        params.bucket,
        prefix,
        (prefix + search).toLowerCase(),
        limit,
        offset,
      ]),
  );
  return json(
    rows.map((row) => ({
      name: row.name,
      id: row.id,
      updated_at: isoTime(row.updated_at),
      created_at: isoTime(row.created_at),
      last_accessed_at: isoTime(row.last_accessed_at),
      metadata: row.metadata,
    })),
  );
};

interface V2Row {
  id: string;
  name: string;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

const BATCH = 1000;

function encodeCursor(startAfter: string): string {
  return Buffer.from(JSON.stringify({ startAfter })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      startAfter?: unknown;
    };
    if (typeof value.startAfter === 'string') return value.startAfter;
  } catch {
    // fall through
  }
  throw ERRORS.invalidRequest('Invalid cursor');
}

/**
 * POST `/object/list-v2/{b}` (upstream ObjectStorage.listObjectsV2): full names in byte order
 * after an opaque cursor; with `with_delimiter`, deeper names fold into `prefix/sub/` folders.
 * Only name order is implemented.
 */
export const listObjectsV2: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  const limit = Math.min(optionalInteger(body, 'limit', 1) ?? 1000, 1000);
  const delimiter = body.with_delimiter === true ? '/' : null;
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  if ((sortBy.column ?? 'name') !== 'name' || (sortBy.order ?? 'asc') !== 'asc') {
    throw ERRORS.notImplemented('list-v2 sorting other than by name ascending');
  }
  let seek = typeof body.cursor === 'string' && body.cursor ? decodeCursor(body.cursor) : '';
  const entries: Array<Record<string, unknown> & { name: string; id: string | null }> = [];
  let lastFolder = delimiter && seek.endsWith(delimiter) ? seek : null;
  await asCaller(deps.db, { caller, req, operation: 'storage.object.list_v2' }, async (tx) => {
    while (entries.length <= limit) {
      const { rows } = await tx.query<V2Row>(SQL['list-objects-v2'], [
        params.bucket,
        prefix,
        seek,
        BATCH,
      ]);
      for (const row of rows) {
        seek = row.name;
        const rest = row.name.slice(prefix.length);
        const cut = delimiter ? rest.indexOf(delimiter) : -1;
        if (cut >= 0) {
          const folder = row.name.slice(0, prefix.length + cut + 1);
          if (folder === lastFolder) continue;
          lastFolder = folder;
          entries.push({ id: null, name: folder, bucket_id: params.bucket });
        } else {
          entries.push({
            id: row.id,
            name: row.name,
            bucket_id: params.bucket,
            updated_at: isoTime(row.updated_at),
            created_at: isoTime(row.created_at),
            last_accessed_at: isoTime(row.last_accessed_at),
            metadata: row.metadata,
          });
        }
        if (entries.length > limit) break;
      }
      if (rows.length < BATCH) break;
    }
  });
  const hasNext = entries.length > limit;
  const page = entries.slice(0, limit);
  const last = page[page.length - 1];
  return json({
    hasNext,
    folders: page.filter((e) => e.id === null),
    objects: page.filter((e) => e.id !== null),
    ...(hasNext && last ? { nextCursor: encodeCursor(last.name), nextCursorKey: last.name } : {}),
  });
};
