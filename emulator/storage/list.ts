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
 * `columns`, and whose optional `order` is exactly `asc` or `desc` (no case folding).
 */
export function sortOf(
  value: unknown,
  columns: ReadonlySet<string> = SORT_COLUMNS,
): { column: string; order: 'asc' | 'desc' } {
  if (value === undefined || value === null) return { column: 'name', order: 'asc' };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw ERRORS.invalidRequest('body/sortBy must be object');
  }
  const { column, order } = value as { column?: unknown; order?: unknown };
  if (column === undefined) {
    throw ERRORS.invalidRequest("body/sortBy must have required property 'column'");
  }
  if (typeof column !== 'string' || !columns.has(column)) {
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
