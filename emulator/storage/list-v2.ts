// POST `/object/list-v2/{b}`: upstream ObjectStorage.listObjectsV2 over search_v2, read as the caller.
import { asCaller, callerOf } from './caller.js';
import { StorageError } from './errors.js';
import { isoTime } from './limits.js';
import { sortOf } from './list.js';
import { json, optionalInteger, readJson, type RouteHandler } from './route.js';
import { SQL } from './sql.js';

const V2_COLUMNS = new Set(['name', 'updated_at', 'created_at']);

type Row = Record<string, unknown> & { name: string; id: string | null };

/** Upstream's continuation token: base64 of `l:<startAfter>\no:<order>\nc:<column>\na:<after>`. */
interface Cursor {
  startAfter: string;
  sortOrder: string;
  sortColumn?: string;
  sortColumnAfter?: string;
}

const CURSOR_PARTS: Array<[string, keyof Cursor]> = [
  ['l', 'startAfter'],
  ['o', 'sortOrder'],
  ['c', 'sortColumn'],
  ['a', 'sortColumnAfter'],
];

export function encodeCursor(cursor: Partial<Cursor>): string {
  let text = '';
  for (const [key, field] of CURSOR_PARTS) if (cursor[field]) text += `${key}:${cursor[field]}\n`;
  return Buffer.from(text.slice(0, -1)).toString('base64');
}

export function decodeCursor(token: string): Cursor {
  const result: Cursor = { startAfter: '', sortOrder: 'asc' };
  for (const part of Buffer.from(token, 'base64').toString().split('\n')) {
    const match = /^(\S):(.*)/.exec(part);
    const field = match && CURSOR_PARTS.find(([key]) => key === match[1])?.[1];
    if (!match || !field) {
      throw new StorageError(400, 'InvalidParameter', 'Invalid Parameter continuation token');
    }
    result[field] = match[2]!;
  }
  return result;
}

/**
 * Upstream reads a cursor's order and column before the body's (`cursor?.sortOrder ||
 * options.sortBy.order`), so a page keeps the order it started with.
 */
function plan(body: Record<string, unknown>) {
  const sort = body.sortBy === undefined ? null : sortOf(body.sortBy, V2_COLUMNS);
  const cursor =
    typeof body.cursor === 'string' && body.cursor ? decodeCursor(body.cursor) : undefined;
  const order = (cursor?.sortOrder || sort?.order) === 'desc' ? 'desc' : 'asc';
  const column = cursor?.sortColumn || sort?.column;
  return {
    order,
    // Anything but a timestamp column sorts by name, as search_v2's validation does.
    column: column === 'created_at' || column === 'updated_at' ? column : undefined,
    startAfter: cursor?.startAfter ?? '',
    after: cursor?.sortColumnAfter ?? '',
  } as const;
}

export const listObjectsV2: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  const limit = Math.min(optionalInteger(body, 'limit', 1) ?? 1000, 1000);
  const delimited = body.with_delimiter === true;
  const { order, column, startAfter, after } = plan(body);
  const op = order === 'asc' ? '>' : '<';
  const values: unknown[] = delimited
    ? [params.bucket, prefix, prefix ? prefix.split('/').length : 1, limit + 1]
    : [params.bucket, prefix, limit + 1];
  let cursor = 'true';
  if (startAfter) {
    const n = values.length;
    values.push(startAfter);
    if (column && (after || delimited)) {
      values.push(after);
      cursor = `row(date_trunc('milliseconds', ${column}), name collate "C") ${op} row(coalesce(nullif($${n + 2}::text, '')::timestamptz, 'epoch'::timestamptz), $${n + 1}::text)`;
    } else if (delimited) {
      // A cursor naming a folder skips the whole folder (list_objects_with_delimiter).
      cursor = `sort_name collate "C" ${op} (case when exists (select 1 from storage.objects o where o.bucket_id = $1 and left(o.name, char_length($${n + 1}::text) + 1) = $${n + 1}::text || '/') then $${n + 1}::text || '/' else $${n + 1}::text end)`;
    } else {
      cursor = `name collate "C" ${op} $${n + 1}::text`;
    }
  }
  const orderBy = column
    ? delimited
      ? `order by coalesce(date_trunc('milliseconds', ${column}), 'epoch'::timestamptz) ${order}, name collate "C" ${order}`
      : `order by ${column} ${order}, name collate "C" ${order}`
    : `order by ${delimited ? 'sort_name' : 'name'} collate "C" ${order}`;
  const text = SQL[delimited ? 'list-objects-v2-delimited' : 'list-objects-v2']
    .replace('/*cursor*/', cursor)
    .replace('/*order*/', orderBy);
  const { rows } = await asCaller(
    deps.db,
    { caller, req, operation: 'storage.object.list_v2' },
    (tx) => tx.query<Row>(text, values),
  );
  const entries = delimited ? fold(rows, prefix, params.bucket!) : rows;
  const hasNext = entries.length > limit;
  const page = entries.slice(0, limit);
  const folders: Row[] = [];
  const objects: Row[] = [];
  for (const row of page) {
    const entry = present(row, delimited && !column);
    if (row.id === null) {
      folders.push({ ...entry, name: row.name.endsWith('/') ? row.name : `${row.name}/` });
    } else {
      objects.push(entry);
    }
  }
  const last = page[page.length - 1];
  return json({
    hasNext,
    ...(hasNext && last
      ? {
          nextCursor: encodeCursor({
            startAfter: last.name,
            sortOrder: order,
            sortColumn: column,
            sortColumnAfter: column && last[column] ? (isoTime(last[column]) ?? '') : undefined,
          }),
          nextCursorKey: last.name,
        }
      : {}),
    folders,
    objects,
  });
};

/** Upstream's second folding pass: a name with a delimiter past the prefix becomes its folder. */
function fold(rows: Row[], prefix: string, bucket: string): Row[] {
  const out: Row[] = [];
  let previous = '';
  for (const row of rows) {
    let index = row.name.replace(prefix, '').indexOf('/');
    if (index < 0) {
      out.push(row);
      continue;
    }
    index = prefix.length + index + 1;
    const folder = row.name.slice(0, index);
    if (folder === previous) continue;
    previous = folder;
    out.push({ id: null, name: folder, bucket_id: bucket });
  }
  return out;
}

/** Timestamps as upstream serialises them; name-sorted folders carry none (search_v2). */
function present(row: Row, nameSortedFolders: boolean): Row {
  const out: Row = { ...row };
  for (const field of ['updated_at', 'created_at', 'last_accessed_at']) {
    if (field in out)
      out[field] = nameSortedFolders && row.id === null ? null : isoTime(out[field]);
  }
  return out;
}
