// Loads queries.sql into named statements at startup; a missing name stops the service from starting.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const NAMES = [
  'set-scope',
  'find-bucket',
  'list-buckets',
  'create-bucket',
  'update-bucket',
  'count-objects',
  'delete-bucket',
  'allow-delete',
  'find-object',
  'find-objects',
  'insert-object',
  'upsert-object',
  'delete-objects',
  'move-object',
  'list-objects',
  'list-objects-v2',
  'list-objects-v2-delimited',
] as const;

export type QueryName = (typeof NAMES)[number];

/** Splits a file of `-- name: x` sections into a map of name → SQL text. */
export function parseNamedQueries(text: string): Map<string, string> {
  const queries = new Map<string, string>();
  let name: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (name) queries.set(name, lines.join('\n').trim().replace(/;$/, ''));
  };
  for (const line of text.split('\n')) {
    const match = /^--\s*name:\s*([\w-]+)\s*$/.exec(line);
    if (match) {
      flush();
      name = match[1] ?? null;
      lines = [];
    } else if (name && !line.startsWith('--')) {
      lines.push(line);
    }
  }
  flush();
  return queries;
}

function load(): Record<QueryName, string> {
  const file = fileURLToPath(new URL('./queries.sql', import.meta.url));
  const parsed = parseNamedQueries(readFileSync(file, 'utf8'));
  const out = {} as Record<QueryName, string>;
  for (const name of NAMES) {
    const text = parsed.get(name);
    if (!text) throw new Error(`emulator/storage/queries.sql: query "${name}" is missing`);
    out[name] = text;
  }
  return out;
}

export const SQL: Readonly<Record<QueryName, string>> = load();
